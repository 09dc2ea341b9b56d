import { randomBytes } from 'node:crypto';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { JsonLd } from '~/components/JsonLd';
import {
  baseSecurityHeaders,
  contentSecurityPolicy,
  DEFAULT_SCHEDULING_ORIGIN,
  NONCE_PLACEHOLDER,
  schedulingFrameSources,
  withFreshNonce,
} from './csp.server';
import { NonceContext } from './nonce';

const directives = (policy: string) =>
  new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );

describe('contentSecurityPolicy', () => {
  const base = {
    nonce: 'abc123',
    tagManager: false,
    frameAncestors: ["'self'"],
    frameSources: ['https://calendly.com'],
  };

  it('allows scripts only with the nonce (and what they load), never inline or eval', () => {
    const csp = directives(contentSecurityPolicy(base));
    expect(csp.get('script-src')).toEqual(["'nonce-abc123'", "'strict-dynamic'", "'self'"]);
    expect(contentSecurityPolicy(base)).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'", 'https://checkout.stripe.com', 'https://buy.stripe.com']);
    // The hosted world's images come from Sanity's CDN.
    expect(
      directives(contentSecurityPolicy({ ...base, imageOrigins: ['https://cdn.sanity.io'] })).get('img-src'),
    ).toContain('https://cdn.sanity.io');
    expect(csp.get('img-src')).not.toContain('https://cdn.sanity.io');
    // A Stripe API address of its own (the test stand-in) serves Checkout there: forms may lead to it too.
    expect(
      directives(contentSecurityPolicy({ ...base, paymentOrigins: ['http://127.0.0.1:4011'] })).get('form-action'),
    ).toContain('http://127.0.0.1:4011');
    expect(csp.get('frame-src')).toEqual(["'self'", 'https://calendly.com']);
    expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    // Nothing from Google without GTM_ID.
    expect(contentSecurityPolicy(base)).not.toContain('google');
  });

  it('lets the tag manager and Google Analytics in when GTM_ID is set', () => {
    const csp = directives(contentSecurityPolicy({ ...base, tagManager: true }));
    expect(csp.get('script-src')).toContain('https://www.googletagmanager.com');
    expect(csp.get('connect-src')).toEqual(expect.arrayContaining(["'self'", 'https://*.google-analytics.com']));
    expect(csp.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'https://*.googletagmanager.com']));
  });

  it('keeps the Studio as a frame ancestor of a hosted preview', () => {
    const csp = directives(
      contentSecurityPolicy({ ...base, frameAncestors: ["'self'", 'https://bawaba.sanity.studio'] }),
    );
    expect(csp.get('frame-ancestors')).toEqual(["'self'", 'https://bawaba.sanity.studio']);
  });
});

describe('schedulingFrameSources', () => {
  it('frames the scheduling URL of the shell data, else the default', () => {
    const shell = (schedulingUrl: string) => ({ shell: { settings: { schedulingUrl } } });
    expect(schedulingFrameSources({ root: {}, 'locale-en': shell('https://cal.com/bawaba/30min?x=1') }, true)).toEqual([
      'https://cal.com',
    ]);
    expect(schedulingFrameSources({ root: null }, true)).toEqual([DEFAULT_SCHEDULING_ORIGIN]);
    expect(schedulingFrameSources({ 'locale-ar': shell('javascript:alert(1)') }, true)).toEqual([
      DEFAULT_SCHEDULING_ORIGIN,
    ]);
    expect(schedulingFrameSources({ 'locale-ar': shell('http://calendar.test/x') }, true)).toEqual([
      DEFAULT_SCHEDULING_ORIGIN,
    ]);
    expect(schedulingFrameSources({ 'locale-ar': shell('http://calendar.test/x') }, false)).toEqual([
      'http://calendar.test',
    ]);
  });
});

describe('baseSecurityHeaders', () => {
  it('sends HSTS only behind HTTPS', () => {
    expect(baseSecurityHeaders(false)).toEqual({
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    });
    expect(baseSecurityHeaders(true)['Strict-Transport-Security']).toBe('max-age=63072000; includeSubDomains');
  });
});

/** A page like ours: JSON-LD from content and an inline script, rendered whole as the entry does. */
function renderPage(attackerText: string): string {
  return renderToString(
    <NonceContext.Provider value={NONCE_PLACEHOLDER}>
      <html>
        <body>
          <p title={attackerText}>{attackerText}</p>
          <JsonLd data={{ name: attackerText }} />
          <script nonce={NONCE_PLACEHOLDER} dangerouslySetInnerHTML={{ __html: 'window.x = 1' }} />
        </body>
      </html>
    </NonceContext.Provider>,
  );
}

describe('a rendered page served with a fresh nonce per response, without rendering again', () => {
  it('every script gets the response nonce; the placeholder never leaves; content cannot forge it', () => {
    // What an attacker can put into content or a query string: text shaped like a placeholder
    // (they never see the real one), and markup trying to carry a nonce.
    const forged = `csp${randomBytes(24).toString('base64url')}`;
    const attackerText = `${forged} "><script nonce="${forged}">alert(1)</script>`;
    // Render once, keep it (as a page cache would)...
    const cached = renderPage(attackerText);
    expect(cached).toContain(NONCE_PLACEHOLDER);
    const page = {
      status: 200,
      headers: new Headers({
        'Content-Security-Policy': contentSecurityPolicy({
          nonce: NONCE_PLACEHOLDER,
          tagManager: false,
          frameAncestors: ["'self'"],
          frameSources: [],
        }),
      }),
    };

    // ...and serve it twice.
    const served = [];
    for (let i = 0; i < 2; i++) {
      const fresh = withFreshNonce(page);
      const body = fresh.fill(cached);
      served.push({ nonce: fresh.nonce, header: fresh.headers.get('Content-Security-Policy')!, body });
    }
    expect(served[0].nonce).not.toBe(served[1].nonce);
    for (const { nonce, header, body } of served) {
      expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(header).toContain(`'nonce-${nonce}'`);
      expect(header).not.toContain(NONCE_PLACEHOLDER);
      expect(body).not.toContain(NONCE_PLACEHOLDER);
      // Every script element (JSON-LD and the inline script) carries this response's nonce.
      const scripts = body.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThanOrEqual(2);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
      // The attacker's text is still only text, and their forged token was left as they wrote it.
      expect(body).toContain(forged);
      expect(body).not.toContain(`<script nonce="${forged}">`);
    }
  });
});
