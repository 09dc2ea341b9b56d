import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedContentClient } from '../embedded.server';
import { ABOUT_QUERY, HOME_QUERY, PRICING_QUERY, SERVICES_QUERY } from './marketing';

const DATASET = path.resolve('studio/dataset/production.ndjson');
let dataDir: string;
let client: EmbeddedContentClient;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'marketing-'));
  client = new EmbeddedContentClient({ datasetFile: DATASET, dataDir });
});
afterAll(async () => {
  client.close();
  await rm(dataDir, { recursive: true, force: true });
});

const run = async <S extends { parse: (v: unknown) => unknown }>(
  def: { query: string; schema: S },
  lang: 'en' | 'ar',
) => def.schema.parse(await client.fetch(def.query, { lang }, { perspective: 'published' })) as ReturnType<S['parse']>;

describe('marketing queries over the bundled dataset', () => {
  it('home: hero with its highlight word, six services, three testimonials, four statistics and indicators', async () => {
    for (const lang of ['en', 'ar'] as const) {
      const home = await run(HOME_QUERY, lang);
      const highlight = home.page.hero.highlight!;
      expect(highlight).toBe(lang === 'en' ? 'UAE' : 'الإمارات');
      expect(home.page.hero.headline).toContain(highlight);
      expect(home.page.hero.reasons.length).toBeGreaterThan(3);
      expect(home.services.map((s) => s.anchor)).toEqual([
        'market-entry',
        'business-setup',
        'launch-strategy',
        'operations',
        'recruitment',
        'performance',
      ]);
      expect(home.testimonials.map((t) => t.key)).toEqual(['techStartup', 'manufacturing', 'retail']);
      expect(home.statistics.map((s) => s.value)).toEqual(['68%', '4.5%', '16,000+', '0%']);
      expect(home.indicators).toHaveLength(4);
      expect(home.indicators.map((i) => i.trend)).toEqual(['expanding', 'accelerating', 'stable', 'rising']);
      expect(home.page.strategyCta.options.length).toBeGreaterThan(0);
    }
    const ar = await run(HOME_QUERY, 'ar');
    expect(ar.page.claims.map((c) => c.text).join(' ')).toMatch(/150/);
    expect(ar.testimonials[0].author).toBe('دانيال تان');
  });

  it('services: six sections with features and the four setup options', async () => {
    const en = await run(SERVICES_QUERY, 'en');
    expect(en.page.title).toBe('Our Advisory Services');
    expect(en.services).toHaveLength(6);
    expect(en.services.every((s) => s.features.length > 0 && s.description)).toBe(true);
    expect(en.setupOptions.map((o) => o.key)).toEqual(['freeZone', 'mainland', 'branchOffice', 'llc']);
    const ar = await run(SERVICES_QUERY, 'ar');
    expect(ar.services[0].title).toBe('دخول السوق');
  });

  it('about: body, values and claims in the page language', async () => {
    const ar = await run(ABOUT_QUERY, 'ar');
    expect(ar.title).toBe('عن بوابة للاستشارات');
    expect(ar.values.map((v) => v.title)).toEqual(['الوضوح', 'النزاهة', 'الشراكة', 'النتائج']);
    expect(ar.body.length).toBeGreaterThan(3);
    expect(ar.image?.alt).toMatch(/دبي/);
  });

  it('pricing: three plans with SGD prices, the popular label and key areas', async () => {
    const en = await run(PRICING_QUERY, 'en');
    expect(en.plans.map((p) => [p.key, p.priceSgd, p.businessReports])).toEqual([
      ['starter', 950, 1],
      ['business', 1900, 2],
      ['enterprise', 3800, 3],
    ]);
    expect(en.plans[1].popularLabel).toBe('Most Popular');
    expect(en.plans[0].keyAreas.length).toBeGreaterThan(0);
    expect(en.plans[2].keyAreas).toEqual([]);
  });
});
