/**
 * A local, Observatory-style grade of one HTML response: the rules of Mozilla's HTTP
 * Observatory (the MDN HTTP Observatory's scoring, as published with it), applied to the
 * headers and HTML we already have, so the suite can check the grade without the internet.
 *
 * Scoring: start at 100, add each test's modifier; bonuses (positive modifiers) count only
 * when the score without them is at least 90. Grades: 100+ A+, 90 A, 85 A-, 80 B+, 70 B,
 * 65 B-, 60 C+, 50 C, 45 C-, 40 D+, 30 D, 25 D-, below F.
 *
 * Not checked here, and why:
 * - redirection (http → https on the same host): TLS and the port-80 redirect belong to the
 *   proxy in front of `npm start`; on loopback there is no https. Reported with modifier 0.
 * - HSTS preload-list membership (+5): a list Google keeps; we do not preload (ADR 0009).
 * - CORS files (crossdomain.xml, clientaccesspolicy.xml): the site serves none.
 */

export interface RuleResult {
  test: string;
  result: string;
  modifier: number;
  note: string;
}

export interface Graded {
  rules: RuleResult[];
  score: number;
  grade: string;
}

export interface Scanned {
  /** The URL as visitors reach it (its scheme matters: https for a production-like start). */
  url: string;
  /** Response headers; names in any case; Set-Cookie as one entry per cookie. */
  headers: { name: string; value: string }[];
  html: string;
}

const GRADES: [number, string][] = [
  [100, 'A+'],
  [90, 'A'],
  [85, 'A-'],
  [80, 'B+'],
  [70, 'B'],
  [65, 'B-'],
  [60, 'C+'],
  [50, 'C'],
  [45, 'C-'],
  [40, 'D+'],
  [30, 'D'],
  [25, 'D-'],
  [0, 'F'],
];

const BROAD = new Set(['ftp:', 'http:', 'https:', '*', 'http://*', 'http://*.*', 'https://*', 'https://*.*']);
const INLINE = new Set(["'unsafe-inline'", 'data:']);
const isNonceOrHash = (s: string) => /^'(nonce-|sha256-|sha384-|sha512-)/.test(s);

function headerValues(scan: Scanned, name: string): string[] {
  return scan.headers.filter((h) => h.name.toLowerCase() === name.toLowerCase()).map((h) => h.value);
}

export function parseCsp(values: string[]): Map<string, Set<string>> {
  const policy = new Map<string, Set<string>>();
  for (const value of values.flatMap((v) => v.split(','))) {
    for (const directive of value.split(';')) {
      const [name, ...sources] = directive.trim().split(/\s+/);
      if (!name) continue;
      const key = name.toLowerCase();
      // Keywords are case-insensitive; nonces and hashes are not.
      if (!policy.has(key))
        policy.set(
          key,
          new Set(sources.map((s) => (s.startsWith("'") && !/^'(nonce|sha\d+)-/i.test(s) ? s.toLowerCase() : s))),
        );
    }
  }
  return policy;
}

/** content-security-policy: what scripts, objects and styles may do. */
function cspRule(scan: Scanned): RuleResult {
  const test = 'content-security-policy';
  const values = headerValues(scan, 'content-security-policy');
  if (!values.length)
    return { test, result: 'csp-not-implemented', modifier: -25, note: 'no Content-Security-Policy header' };
  const csp = parseCsp(values);
  const fallback = csp.get('default-src');
  const script = new Set(csp.get('script-src') ?? fallback ?? ['*']);
  const object = new Set(csp.get('object-src') ?? fallback ?? ['*']);
  const style = new Set(csp.get('style-src') ?? fallback ?? ['*']);
  for (const list of [script, style]) if ([...list].some(isNonceOrHash)) list.delete("'unsafe-inline'");
  if (script.has("'strict-dynamic'")) {
    if (![...script].some(isNonceOrHash))
      return { test, result: 'csp-header-invalid', modifier: -25, note: "'strict-dynamic' without a nonce or hash" };
    // What CSP3 browsers ignore under 'strict-dynamic'.
    for (const s of [...script])
      if (s === "'self'" || s === "'unsafe-inline'" || [...BROAD].some((b) => s.startsWith(b))) script.delete(s);
  }
  const https = scan.url.startsWith('https:');
  const active = [...csp.entries()]
    .filter(([d]) => d !== 'img-src' && d !== 'media-src' && d !== 'script-src')
    .flatMap(([, s]) => [...s])
    .concat([...script]);
  const passive = ['img-src', 'media-src'].flatMap((d) => [...(csp.get(d) ?? fallback ?? [])]);
  const insecure = (s: string) => s.startsWith('http:') || s.startsWith('ftp:');
  if ([...script].some((s) => BROAD.has(s) || INLINE.has(s)) || [...object].some((s) => BROAD.has(s))) {
    return {
      test,
      result: 'csp-implemented-with-unsafe-inline',
      modifier: -20,
      note: 'script-src allows inline or any host, or object-src is open',
    };
  }
  if (https && active.some(insecure))
    return {
      test,
      result: 'csp-implemented-with-insecure-scheme',
      modifier: -20,
      note: 'http: sources for active content',
    };
  if (script.has("'unsafe-eval'") || style.has("'unsafe-eval'"))
    return { test, result: 'csp-implemented-with-unsafe-eval', modifier: -10, note: "'unsafe-eval'" };
  if (https && passive.some(insecure))
    return {
      test,
      result: 'csp-implemented-with-insecure-scheme-in-passive-content-only',
      modifier: -10,
      note: 'http: images or media',
    };
  if ([...style].some((s) => BROAD.has(s) || INLINE.has(s))) {
    return {
      test,
      result: 'csp-implemented-with-unsafe-inline-in-style-src-only',
      modifier: 0,
      note: "scripts locked down; style-src keeps 'unsafe-inline'",
    };
  }
  if (fallback?.has("'none'") && fallback.size === 1)
    return {
      test,
      result: 'csp-implemented-with-no-unsafe-default-src-none',
      modifier: 10,
      note: "default-src 'none'",
    };
  return { test, result: 'csp-implemented-with-no-unsafe', modifier: 5, note: "no 'unsafe-inline' or 'unsafe-eval'" };
}

/** cookies: Secure everywhere, HttpOnly on session cookies, SameSite. */
function cookiesRule(scan: Scanned, hsts: boolean): RuleResult {
  const test = 'cookies';
  const cookies = headerValues(scan, 'set-cookie').map((line) => {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const flags = new Map(
      attrs.map((a) => {
        const [k, v = ''] = a.split('=');
        return [k.toLowerCase(), v.toLowerCase()] as const;
      }),
    );
    return { name: pair.split('=')[0], flags };
  });
  if (!cookies.length) return { test, result: 'cookies-not-found', modifier: 0, note: 'no Set-Cookie on this page' };
  const session = (name: string) => /sess|sid|auth|login|token|csrf|xsrf/i.test(name);
  const worst: RuleResult[] = [];
  for (const c of cookies) {
    const sameSite = c.flags.get('samesite');
    if (!c.flags.has('secure')) {
      worst.push(
        session(c.name)
          ? hsts
            ? { test, result: 'cookies-session-without-secure-flag-but-protected-by-hsts', modifier: -10, note: c.name }
            : { test, result: 'cookies-session-without-secure-flag', modifier: -40, note: c.name }
          : hsts
            ? { test, result: 'cookies-without-secure-flag-but-protected-by-hsts', modifier: -5, note: c.name }
            : { test, result: 'cookies-without-secure-flag', modifier: -20, note: c.name },
      );
    }
    if (session(c.name) && !c.flags.has('httponly'))
      worst.push({ test, result: 'cookies-session-without-httponly-flag', modifier: -30, note: c.name });
    if (sameSite !== undefined && sameSite !== 'strict' && sameSite !== 'lax')
      worst.push({ test, result: 'cookies-samesite-flag-invalid', modifier: -20, note: c.name });
  }
  if (worst.length) return worst.sort((a, b) => a.modifier - b.modifier)[0];
  if (cookies.every((c) => c.flags.has('samesite')))
    return {
      test,
      result: 'cookies-secure-with-httponly-sessions-and-samesite',
      modifier: 5,
      note: cookies.map((c) => c.name).join(', '),
    };
  return { test, result: 'cookies-secure-with-httponly-sessions', modifier: 0, note: 'no SameSite on some' };
}

function corsRule(scan: Scanned): RuleResult {
  const test = 'cross-origin-resource-sharing';
  const origin = headerValues(scan, 'access-control-allow-origin')[0]?.trim();
  if (!origin)
    return {
      test,
      result: 'cross-origin-resource-sharing-not-implemented',
      modifier: 0,
      note: 'no Access-Control-Allow-Origin',
    };
  const credentials = headerValues(scan, 'access-control-allow-credentials')[0]?.trim().toLowerCase() === 'true';
  if (origin === '*' && !credentials)
    return { test, result: 'cross-origin-resource-sharing-implemented-with-public-access', modifier: 0, note: '*' };
  if (credentials)
    return {
      test,
      result: 'cross-origin-resource-sharing-implemented-with-universal-access',
      modifier: -50,
      note: 'credentials allowed',
    };
  return {
    test,
    result: 'cross-origin-resource-sharing-implemented-with-restricted-access',
    modifier: 0,
    note: origin,
  };
}

function referrerRule(scan: Scanned): RuleResult {
  const test = 'referrer-policy';
  const values = headerValues(scan, 'referrer-policy')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  if (!values.length)
    return { test, result: 'referrer-policy-not-implemented', modifier: 0, note: 'no Referrer-Policy' };
  const valid = [
    'no-referrer',
    'same-origin',
    'strict-origin',
    'strict-origin-when-cross-origin',
    'origin',
    'origin-when-cross-origin',
    'unsafe-url',
    'no-referrer-when-downgrade',
  ];
  const effective = [...values].reverse().find((v) => valid.includes(v));
  if (!effective) return { test, result: 'referrer-policy-header-invalid', modifier: -5, note: values.join(', ') };
  if (valid.slice(0, 4).includes(effective))
    return { test, result: 'referrer-policy-private', modifier: 5, note: effective };
  return { test, result: 'referrer-policy-unsafe', modifier: -5, note: effective };
}

function hstsRule(scan: Scanned): RuleResult {
  const test = 'strict-transport-security';
  const value = headerValues(scan, 'strict-transport-security')[0];
  if (!value) return { test, result: 'hsts-not-implemented', modifier: -20, note: 'no Strict-Transport-Security' };
  const maxAge = /(?:^|;)\s*max-age\s*=\s*"?(\d+)"?\s*(?:;|$)/i.exec(value)?.[1];
  if (maxAge === undefined) return { test, result: 'hsts-header-invalid', modifier: -20, note: value };
  if (Number(maxAge) < 15_768_000)
    return { test, result: 'hsts-implemented-max-age-less-than-six-months', modifier: -10, note: value };
  return {
    test,
    result: 'hsts-implemented-max-age-at-least-six-months',
    modifier: 0,
    note: `${value} (preload list membership not checked)`,
  };
}

/** The registrable domain, roughly (last two labels; enough for the site's own hosts). */
const siteOf = (host: string) => host.split('.').slice(-2).join('.');

function sriRule(scan: Scanned): RuleResult {
  const test = 'subresource-integrity';
  const contentType = headerValues(scan, 'content-type')[0] ?? '';
  if (contentType && !/text\/html|application\/xhtml\+xml/i.test(contentType))
    return { test, result: 'sri-not-implemented-response-not-html', modifier: 0, note: contentType };
  const tags = scan.html.match(/<script\b[^>]*>/gi) ?? [];
  if (!tags.length)
    return { test, result: 'sri-not-implemented-but-no-scripts-loaded', modifier: 0, note: 'no script elements' };
  const page = new URL(scan.url);
  const results: RuleResult[] = [];
  let foreign = false;
  for (const tag of tags) {
    const src = /\ssrc\s*=\s*["']?([^"'\s>]+)/i.exec(tag)?.[1];
    if (!src) continue;
    const integrity = /\sintegrity\s*=/i.test(tag);
    if (src.startsWith('//')) {
      foreign = true;
      results.push(
        integrity
          ? { test, result: 'sri-implemented-but-external-scripts-not-loaded-securely', modifier: -20, note: src }
          : { test, result: 'sri-not-implemented-and-external-scripts-not-loaded-securely', modifier: -50, note: src },
      );
      continue;
    }
    const url = new URL(src, page);
    if (!/^https?:\/\//i.test(src) || siteOf(url.hostname) === siteOf(page.hostname)) continue; // same site
    foreign = true;
    const secure = url.protocol === 'https:';
    if (integrity && !secure)
      results.push({
        test,
        result: 'sri-implemented-but-external-scripts-not-loaded-securely',
        modifier: -20,
        note: src,
      });
    else if (!integrity && secure)
      results.push({
        test,
        result: 'sri-not-implemented-but-external-scripts-loaded-securely',
        modifier: -5,
        note: src,
      });
    else if (!integrity)
      results.push({
        test,
        result: 'sri-not-implemented-and-external-scripts-not-loaded-securely',
        modifier: -50,
        note: src,
      });
  }
  if (results.length) return results.sort((a, b) => a.modifier - b.modifier)[0];
  if (foreign)
    return {
      test,
      result: 'sri-implemented-and-external-scripts-loaded-securely',
      modifier: 5,
      note: 'external scripts carry integrity',
    };
  return {
    test,
    result: 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin',
    modifier: 0,
    note: `${tags.length} script elements, none from another site`,
  };
}

function nosniffRule(scan: Scanned): RuleResult {
  const test = 'x-content-type-options';
  const value = headerValues(scan, 'x-content-type-options')[0];
  if (!value) return { test, result: 'x-content-type-options-not-implemented', modifier: -5, note: 'missing' };
  if (value.trim().toLowerCase() === 'nosniff')
    return { test, result: 'x-content-type-options-nosniff', modifier: 0, note: 'nosniff' };
  return { test, result: 'x-content-type-options-header-invalid', modifier: -5, note: value };
}

function framingRule(scan: Scanned): RuleResult {
  const test = 'x-frame-options';
  const csp = parseCsp(headerValues(scan, 'content-security-policy'));
  if (csp.has('frame-ancestors'))
    return {
      test,
      result: 'x-frame-options-implemented-via-csp',
      modifier: 5,
      note: `frame-ancestors ${[...csp.get('frame-ancestors')!].join(' ')}`,
    };
  const xfo = headerValues(scan, 'x-frame-options')[0]?.trim().toLowerCase();
  if (!xfo) return { test, result: 'x-frame-options-not-implemented', modifier: -20, note: 'missing' };
  if (xfo === 'deny' || xfo === 'sameorigin')
    return { test, result: 'x-frame-options-sameorigin-or-deny', modifier: 0, note: xfo };
  if (xfo.startsWith('allow-from'))
    return { test, result: 'x-frame-options-allow-from-origin', modifier: 0, note: xfo };
  return { test, result: 'x-frame-options-header-invalid', modifier: -20, note: xfo };
}

function corpRule(scan: Scanned): RuleResult {
  const test = 'cross-origin-resource-policy';
  const value = headerValues(scan, 'cross-origin-resource-policy')[0]?.trim().toLowerCase();
  if (!value) return { test, result: 'corp-not-implemented', modifier: 0, note: 'not set (defaults to cross-origin)' };
  if (value === 'same-origin') return { test, result: 'corp-implemented-with-same-origin', modifier: 10, note: value };
  if (value === 'same-site') return { test, result: 'corp-implemented-with-same-site', modifier: 10, note: value };
  if (value === 'cross-origin') return { test, result: 'corp-implemented-with-cross-origin', modifier: 0, note: value };
  return { test, result: 'corp-header-invalid', modifier: -5, note: value };
}

export function gradeResponse(scan: Scanned): Graded {
  const hsts = hstsRule(scan);
  const rules = [
    cspRule(scan),
    cookiesRule(scan, hsts.modifier === 0),
    corsRule(scan),
    {
      test: 'redirection',
      result: 'not-checked-on-loopback',
      modifier: 0,
      note: 'http → https redirect is the TLS proxy’s job; not testable on loopback',
    },
    referrerRule(scan),
    hsts,
    sriRule(scan),
    nosniffRule(scan),
    framingRule(scan),
    corpRule(scan),
  ];
  const base = 100 + rules.filter((r) => r.modifier < 0).reduce((sum, r) => sum + r.modifier, 0);
  const bonus = base >= 90 ? rules.filter((r) => r.modifier > 0).reduce((sum, r) => sum + r.modifier, 0) : 0;
  const score = Math.max(0, base + bonus);
  return { rules, score, grade: GRADES.find(([min]) => score >= min)![1] };
}

export function formatGrade(label: string, graded: Graded): string {
  const lines = graded.rules.map(
    (r) =>
      `  ${(r.modifier > 0 ? `+${r.modifier}` : String(r.modifier)).padStart(4)}  ${r.test.padEnd(31)} ${r.result}  (${r.note})`,
  );
  return [`Observatory-style grade of ${label}: ${graded.score} → ${graded.grade}`, ...lines].join('\n');
}
