import { describe, expect, it } from 'vitest';
import { formatGrade, gradeResponse, type Scanned } from '../observatory';

const h = (record: Record<string, string>) => Object.entries(record).map(([name, value]) => ({ name, value }));
const OUR_CSP =
  "default-src 'self'; script-src 'nonce-abc' 'strict-dynamic' 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self' https://checkout.stripe.com; frame-ancestors 'self'";
const gtmPage =
  '<script>window.dataLayer=[]</script><script async src="https://www.googletagmanager.com/gtm.js?id=GTM-X"></script><script type="module">import "/build/x.js"</script>';

describe('the local Observatory check', () => {
  it("grades the probe's finding (no CSP, HSTS or COOP; GTM inline) about a C", () => {
    const before: Scanned = {
      url: 'https://www.bawaba-advisory.com/',
      headers: h({
        'Content-Type': 'text/html',
        'X-Frame-Options': 'SAMEORIGIN',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'strict-origin-when-cross-origin',
      }),
      html: gtmPage,
    };
    const graded = gradeResponse(before);
    expect(graded).toMatchObject({ score: 50, grade: 'C' });
    expect(graded.rules.find((r) => r.test === 'content-security-policy')?.modifier).toBe(-25);
  });

  it('gives our headers A+', () => {
    const ours: Scanned = {
      url: 'https://www.bawaba-advisory.com/',
      headers: h({
        'Content-Type': 'text/html',
        'Content-Security-Policy': OUR_CSP,
        'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
        'X-Frame-Options': 'SAMEORIGIN',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'strict-origin-when-cross-origin',
      }),
      html: '<script nonce="abc">x</script><script nonce="abc" type="module">import "/build/x.js"</script>',
    };
    const graded = gradeResponse(ours);
    expect(graded).toMatchObject({ score: 110, grade: 'A+' });
    expect(formatGrade('/', graded)).toContain('x-frame-options-implemented-via-csp');
    // With GTM: its loader has no integrity (Google changes it): -5, still A+.
    expect(gradeResponse({ ...ours, html: gtmPage })).toMatchObject({ score: 105, grade: 'A+' });
  });

  it('penalises unsafe scripts, short HSTS and insecure cookies', () => {
    const base = { url: 'https://example.com/', html: '' };
    const csp = (policy: string) =>
      gradeResponse({ ...base, headers: h({ 'Content-Security-Policy': policy }) }).rules[0];
    expect(csp("script-src 'self' 'unsafe-inline'; object-src 'none'").modifier).toBe(-20);
    expect(csp("script-src 'nonce-x' 'unsafe-inline'; object-src 'none'; style-src 'self'").modifier).toBe(5);
    expect(csp("script-src 'nonce-x'; object-src 'none'").result).toBe(
      'csp-implemented-with-unsafe-inline-in-style-src-only',
    ); // style-src open
    expect(csp("script-src 'self'").modifier).toBe(-20); // object-src left open
    expect(csp("default-src 'none'").modifier).toBe(10);
    const hsts = gradeResponse({ ...base, headers: h({ 'Strict-Transport-Security': 'max-age=86400' }) }).rules.find(
      (r) => r.test === 'strict-transport-security',
    );
    expect(hsts?.modifier).toBe(-10);
    const cookies = gradeResponse({
      ...base,
      headers: [{ name: 'Set-Cookie', value: '__session=x; Path=/; SameSite=Lax' }],
    }).rules.find((r) => r.test === 'cookies');
    expect(cookies?.result).toBe('cookies-session-without-secure-flag');
  });
});
