/** The policies' tables, rendered on the server from the lists in the code (ADR 0035). */
import { describe, expect, it } from 'vitest';
import { COOKIES } from '~/features/consent/cookie-list.server';
import { RETENTION_TABLE } from '~/portal/retention-policy.server';
import { policyTable } from './policy-table.server';

describe('policyTable', () => {
  it('the cookies policy lists every cookie, in both languages, under the given anchor', () => {
    const en = policyTable('cookies-policy', 'en', 'section-7')!;
    const ar = policyTable('cookies-policy', 'ar', 'section-7')!;
    expect(en.title).toBe('Every cookie this site can set');
    expect(ar.title).not.toBe(en.title);
    expect(ar.title).toMatch(/\p{Script=Arabic}/u);
    for (const { html } of [en, ar]) {
      expect(html).toMatch(/^<section aria-labelledby="section-7"><h2 id="section-7"/);
      expect(html.match(/<tr data-cookie-names=/g)).toHaveLength(COOKIES.length);
    }
    for (const cookie of COOKIES) {
      expect(en.html).toContain(`data-cookie-names="${cookie.names.join(' ')}"`);
      expect(en.html).toContain(cookie.purpose.en.replaceAll("'", '&#x27;').replaceAll('"', '&quot;'));
      expect(ar.html).toContain(cookie.purpose.ar.replaceAll("'", '&#x27;').replaceAll('"', '&quot;'));
    }
  });

  it('the privacy policy shows how long each kind of record is kept', () => {
    const { html } = policyTable('privacy-policy', 'ar', 'section-9')!;
    expect(html).toContain('data-testid="retention-table"');
    for (const row of RETENTION_TABLE) expect(html).toContain(row.period.ar);
    expect(html.match(/<tr>/g)).toHaveLength(RETENTION_TABLE.length + 1);
    expect(html).toContain(RETENTION_TABLE[0]!.what.ar);
  });

  it('the terms of service have none', () => {
    expect(policyTable('terms-of-service', 'en', 'section-3')).toBeNull();
  });
});
