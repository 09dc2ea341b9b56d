import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { imageUrlBuilder } from '~/lib/image';
import { EmbeddedContentClient } from '~/sanity/embedded.server';
import { SHELL_QUERY } from '~/sanity/queries/shell';
import { jsonLdString } from './JsonLd';
import { organizationJsonLd } from './OrganizationJsonLd';

describe('JSON-LD', () => {
  it('cannot close its script element', () => {
    const out = jsonLdString({ name: '</script><script>alert(1)</script> & <!--' });
    expect(out).not.toMatch(/[<>]/);
    expect(JSON.parse(out)).toEqual({ name: '</script><script>alert(1)</script> & <!--' });
  });
});

describe('Organization JSON-LD from the bundled shell content', () => {
  const client = new EmbeddedContentClient({
    datasetFile: path.resolve('studio/dataset/production.ndjson'),
    dataDir: path.resolve('test-results/org-jsonld-unit'),
  });
  afterAll(() => client.close());

  it('names the firm with both offices, in each language', async () => {
    for (const locale of ['en', 'ar'] as const) {
      const shell = SHELL_QUERY.schema.parse(
        await client.fetch(SHELL_QUERY.query, { lang: locale }, { perspective: 'published' }),
      );
      const org = organizationJsonLd({
        shell,
        locale,
        siteUrl: 'https://x.test',
        logoUrl: imageUrlBuilder({ projectId: 'embedded', dataset: 'production', world: 'embedded' })(
          shell.settings.logo!,
          512,
        ),
      });
      expect(org['@type']).toBe('Organization');
      expect(org.name).toBe(locale === 'en' ? 'Bawaba Advisory' : 'بوابة للاستشارات');
      expect(org.url).toBe(locale === 'en' ? 'https://x.test/' : 'https://x.test/ar');
      expect(org.email).toBe('hello@bawaba-advisory.com');
      expect(org.telephone).toBe('+971 4 555 0142');
      expect(org.logo).toMatch(/^https:\/\/x\.test\/images\/embedded\/production\//);
      expect(org.address.map((a) => a.addressCountry)).toEqual(['AE', 'SG']);
      expect(org.address[0]).toMatchObject({
        '@type': 'PostalAddress',
        addressLocality: locale === 'en' ? 'Dubai' : 'دبي',
      });
      expect(org.address[0].streetAddress).toContain(locale === 'en' ? 'Business Bay' : 'الخليج التجاري');
      expect(org.contactPoint.map((c) => c.telephone)).toEqual(['+971 4 555 0142', '+65 8055 1420']);
      expect(org.contactPoint.map((c) => c.email)).toEqual([
        'dubai@bawaba-advisory.com',
        'singapore@bawaba-advisory.com',
      ]);
    }
  });
});
