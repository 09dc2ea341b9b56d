import { createHash } from 'node:crypto';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { JsonLd } from '~/components/JsonLd';
import {
  baseSecurityHeaders,
  contentSecurityPolicy,
  DEFAULT_SCHEDULING_ORIGIN,
  inlineScriptHashes,
  schedulingFrameSources,
} from './csp.server';

const directives = (policy: string) =>
  new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );

describe('contentSecurityPolicy', () => {
  const base = {
    scriptHashes: ["'sha256-abc='"],
    tagManager: false,
    frameAncestors: ["'self'"],
    frameSources: ['https://calendly.com'],
  };

  it('allows scripts only by their hashes (and what they load), never inline or eval', () => {
    const csp = directives(contentSecurityPolicy(base));
    expect(csp.get('script-src')).toEqual(["'sha256-abc='", "'strict-dynamic'", "'self'"]);
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

/** The hash source a browser computes for a script's text (UTF-8, base64), worked out apart from the code under test. */
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(Buffer.from(text, 'utf8')).digest('base64')}'`;

/** A page like ours: JSON-LD from content, an inline script and Remix's kinds of scripts, rendered whole as the entry does. */
function renderPage(attackerText: string, inline = 'window.x = 1'): string {
  return (
    '<!DOCTYPE html>' +
    renderToString(
      <html>
        <head>
          <script dangerouslySetInnerHTML={{ __html: inline }} />
          <script async src="https://www.googletagmanager.com/gtm.js?id=GTM-X" />
        </head>
        <body>
          <p title={attackerText}>{attackerText}</p>
          <JsonLd data={{ name: attackerText }} />
          <script type="module" async dangerouslySetInnerHTML={{ __html: 'import("/build/entry.js")' }} />
          <script
            dangerouslySetInnerHTML={{
              __html: 'window.__ctx = {"t":"\u0627\u0644\u0639\u0631\u0628\u064a\u0629 عربية"}',
            }}
          />
        </body>
      </html>,
    )
  );
}

describe('inlineScriptHashes: the scripts a page may run, by the hash of their exact text', () => {
  it('hashes every inline script a browser runs, as the browser does (UTF-8 text between the tags)', () => {
    const html = renderPage('hello');
    expect(inlineScriptHashes(html)).toEqual([
      sha256('window.x = 1'),
      sha256('import("/build/entry.js")'),
      sha256('window.__ctx = {"t":"\u0627\u0644\u0639\u0631\u0628\u064a\u0629 عربية"}'),
    ]);
  });

  it('a changed script text changes its hash; a page with the same bytes has the same hashes', () => {
    expect(inlineScriptHashes(renderPage('a'))).toEqual(inlineScriptHashes(renderPage('a')));
    const changed = inlineScriptHashes(renderPage('a', 'window.x = 2'));
    expect(changed).not.toContain(sha256('window.x = 1'));
    expect(changed).toContain(sha256('window.x = 2'));
  });

  it('does not hash data blocks (JSON-LD, other types) or external scripts', () => {
    const data = '{"@context":"https://schema.org"}';
    const html =
      `<script type="application/ld+json">${data}</script><script type="text/plain">x()</script>` +
      `<script type="importmap-not-js">{}</script><script src="/a.js"></script><script SRC=/b.js>y()</script>` +
      `<script type="TEXT/JavaScript">z()</script><script type=module>w()</script>`;
    expect(inlineScriptHashes(html)).toEqual([sha256('z()'), sha256('w()')]);
    // Content's text shaped like a script stays text (React escapes it) and gets no hash.
    const attacked = renderPage('"><script>alert(1)</script>');
    expect(attacked).not.toContain('<script>alert(1)</script>');
    expect(inlineScriptHashes(attacked)).not.toContain(sha256('alert(1)'));
    expect(inlineScriptHashes(attacked)).toEqual(inlineScriptHashes(renderPage('hello')));
  });
});
