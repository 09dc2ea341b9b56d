import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderClientEmail, type ClientEmail } from './emails.server';

const site = 'https://www.bawaba-advisory.com';
const plans = { en: { starter: 'Starter', business: 'Business' }, ar: { starter: 'المبتدئ', business: 'الأعمال' } };

type Kind = ClientEmail['kind'];
/** Every kind with its facts, in one language. */
function messages(locale: 'en' | 'ar', name = 'Layla Haddad'): Record<Kind, ClientEmail> {
  const base = { locale, name, siteUrl: site };
  const prefix = locale === 'ar' ? '/ar' : '';
  const p = plans[locale];
  return {
    'sign-in': {
      ...base,
      kind: 'sign-in',
      code: '482913',
      link: `${site}${prefix}/account/verify?c=tok_abc123`,
      minutes: 10,
    },
    'editor-sign-in': {
      ...base,
      kind: 'editor-sign-in',
      code: '771204',
      link: `${site}${prefix}/studio/sign-in?c=tok_ed789`,
      minutes: 10,
    },
    'checkout-confirm': {
      ...base,
      kind: 'checkout-confirm',
      name: '',
      code: '305117',
      link: `${site}${prefix}/account/verify?c=tok_pay456`,
      minutes: 10,
      planName: p.business,
    },
    'subscription-started': {
      ...base,
      kind: 'subscription-started',
      planName: p.business,
      amount: 125000,
      periodEnd: '2026-04-14T00:00:00.000Z',
      invoiceNumber: 'BWB-2026-0004',
      invoiceUrl: `${site}${prefix}/account/invoices/in_4`,
    },
    'plan-changed': {
      ...base,
      kind: 'plan-changed',
      oldPlanName: p.starter,
      newPlanName: p.business,
      effectiveAt: '2026-05-14T00:00:00.000Z',
      newAmount: 125000,
    },
    'change-withdrawn': { ...base, kind: 'change-withdrawn', planName: p.starter },
    cancellation: {
      ...base,
      kind: 'cancellation',
      planName: p.business,
      accessEndsAt: '2026-06-14T00:00:00.000Z',
      resumeUrl: `${site}${prefix}/account/subscription`,
    },
    'renewal-reminder': {
      ...base,
      kind: 'renewal-reminder',
      planName: p.business,
      renewsAt: '2026-07-14T00:00:00.000Z',
      amount: 125000,
      manageUrl: `${site}${prefix}/account/subscription`,
    },
    'payment-failed': {
      ...base,
      kind: 'payment-failed',
      planName: p.business,
      amount: 49950,
      invoiceNumber: 'BWB-2026-0009',
      manageUrl: `${site}${prefix}/account/subscription`,
    },
    'newsletter-confirm': {
      ...base,
      kind: 'newsletter-confirm',
      confirmUrl: `${site}${prefix}/newsletter/confirm?s=abc&at=1&t=sig`,
      days: 7,
      unsubscribeUrl: `${site}${prefix}/newsletter/unsubscribe?s=abc&t=sig2`,
    },
    'newsletter-welcome': {
      ...base,
      kind: 'newsletter-welcome',
      unsubscribeUrl: `${site}${prefix}/newsletter/unsubscribe?s=abc&t=sig2`,
    },
  };
}

const dates = {
  en: { apr: '14 April 2026', may: '14 May 2026', jun: '14 June 2026', jul: '14 July 2026' },
  ar: { apr: '14 أبريل 2026', may: '14 مايو 2026', jun: '14 يونيو 2026', jul: '14 يوليو 2026' },
};
const amount = (locale: 'en' | 'ar', value: string) =>
  locale === 'en' ? `SGD\u00a0${value}` : `\u200f${value}\u00a0SGD`;

/** The facts each kind must state, in both bodies. */
function facts(locale: 'en' | 'ar'): Record<Kind, string[]> {
  const d = dates[locale];
  const p = plans[locale];
  const prefix = locale === 'ar' ? '/ar' : '';
  return {
    'sign-in': ['482913', `${site}${prefix}/account/verify?c=tok_abc123`, locale === 'en' ? '10 minutes' : '10 دقائق'],
    'editor-sign-in': [
      '771204',
      `${site}${prefix}/studio/sign-in?c=tok_ed789`,
      locale === 'en' ? 'Studio' : 'الاستوديو',
      locale === 'en' ? '10 minutes' : '10 دقائق',
    ],
    'checkout-confirm': [
      '305117',
      p.business,
      `${site}${prefix}/account/verify?c=tok_pay456`,
      locale === 'en' ? '10 minutes' : '10 دقائق',
    ],
    'subscription-started': [
      p.business,
      amount(locale, '1,250.00'),
      d.apr,
      'BWB-2026-0004',
      `${site}${prefix}/account/invoices/in_4`,
    ],
    'plan-changed': [p.starter, p.business, d.may, amount(locale, '1,250.00'), `${site}${prefix}/account/subscription`],
    'change-withdrawn': [p.starter, `${site}${prefix}/account/subscription`],
    cancellation: [p.business, d.jun, `${site}${prefix}/account/subscription`],
    'renewal-reminder': [p.business, d.jul, amount(locale, '1,250.00'), `${site}${prefix}/account/subscription`],
    'payment-failed': [p.business, amount(locale, '499.50'), 'BWB-2026-0009', `${site}${prefix}/account/subscription`],
    'newsletter-confirm': [
      `${site}${prefix}/newsletter/confirm?s=abc&at=1&t=sig`,
      locale === 'en' ? '7 days' : '7 أيام',
      `${site}${prefix}/newsletter/unsubscribe?s=abc&t=sig2`,
    ],
    'newsletter-welcome': [`${site}${prefix}/newsletter/unsubscribe?s=abc&t=sig2`],
  };
}

/** HTML to the text a reader sees (tags dropped, entities read). */
const visible = (html: string) =>
  html
    .replace(/<head>[\s\S]*?<\/head>/, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('client emails', () => {
  for (const locale of ['en', 'ar'] as const) {
    for (const [kind, message] of Object.entries(messages(locale)) as [Kind, ClientEmail][]) {
      it(`${kind} (${locale}): one-line subject, text and HTML with the facts`, () => {
        const email = renderClientEmail(message);
        expect(email.subject.length).toBeGreaterThan(5);
        expect(email.subject).not.toMatch(/[\r\n]/);
        expect(email.subject).not.toMatch(/\{\{|\}\}/);
        expect(email.text).not.toMatch(/\{\{|\}\}/);
        expect(email.html).not.toMatch(/\{\{|\}\}/);
        for (const fact of facts(locale)[kind]) {
          expect(email.text, `text: ${fact}`).toContain(fact);
          expect(visible(email.html), `html: ${fact}`).toContain(fact);
        }
        // A payment's confirmation greets no one by name: the address's owner may not be who typed it.
        if (kind === 'checkout-confirm') expect(email.text).toMatch(locale === 'en' ? /^Hello,$/m : /\S/);
        else expect(email.text).toContain('Layla Haddad');
        expect(email.text).toContain(locale === 'en' ? 'Bawaba Advisory' : 'بوابة للاستشارات');
        expect(email.html).toMatch(locale === 'ar' ? /<html lang="ar" dir="rtl">/ : /<html lang="en" dir="ltr">/);
        // One clear button: a link styled as a button, to the action's URL.
        const button = /<a href="([^"]+)" style="display:inline-block;[^"]*background-color/.exec(email.html);
        expect(button?.[1]).toMatch(new RegExp(`^${site.replace(/\./g, '\\.')}/`));
        // Inline styles only: no style sheet, no script.
        expect(email.html).not.toMatch(/<style|<script|<link/i);
        // Arabic and English say it in their own words.
        if (locale === 'ar') expect(visible(email.html)).toMatch(/[\u0600-\u06ff]{3,}/);
      });
    }
  }

  it('the sign-in email shows the code before anything else that looks like one, says it expires and can be ignored', () => {
    for (const locale of ['en', 'ar'] as const) {
      const email = renderClientEmail(messages(locale)['sign-in']);
      expect(/\b(\d{6})\b/.exec(email.text)?.[1]).toBe('482913');
      expect(email.html).toMatch(/<span dir="ltr" style="[^"]*font-size:32px[^"]*">482913<\/span>/);
      expect(email.text).toMatch(locale === 'en' ? /ignore this email/ : /تجاهل هذه الرسالة/);
      expect(email.text).toMatch(locale === 'en' ? /expire in 10 minutes/ : /خلال 10 دقائق/);
      expect(email.subject).not.toContain('482913');
    }
  });

  it('Arabic counts minutes with the right plural form', () => {
    const text = (minutes: number) =>
      renderClientEmail({
        ...(messages('ar')['sign-in'] as Extract<ClientEmail, { kind: 'sign-in' | 'editor-sign-in' }>),
        minutes,
      }).text;
    expect(text(1)).toContain('خلال دقيقة واحدة');
    expect(text(2)).toContain('خلال دقيقتين');
    expect(text(15)).toContain('خلال 15 دقيقة');
    expect(
      renderClientEmail({
        ...(messages('en')['sign-in'] as Extract<ClientEmail, { kind: 'sign-in' | 'editor-sign-in' }>),
        minutes: 1,
      }).text,
    ).toContain('expire in 1 minute ');
  });

  it('escapes every value in the HTML and keeps the subject to one line', () => {
    const evil = '<script>alert("x")</script> & Co';
    for (const locale of ['en', 'ar'] as const) {
      for (const message of Object.values(messages(locale, evil))) {
        if (message.kind === 'checkout-confirm') continue; // shows no name (tested above); its plan is below

        const withEvilPlan =
          'planName' in message
            ? { ...message, planName: `Biz\r\nBcc: x@evil.test <img src=x onerror=alert(1)>` }
            : message;
        const email = renderClientEmail(withEvilPlan as ClientEmail);
        expect(email.html).not.toContain('<script>');
        expect(email.html).not.toContain('<img');
        expect(email.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
        expect(email.subject).not.toMatch(/[\r\n]/);
        // The plain text carries the name as written (it is not HTML).
        expect(email.text).toContain(evil);
      }
      const confirm = messages(locale)['checkout-confirm'] as Extract<ClientEmail, { kind: 'checkout-confirm' }>;
      const email = renderClientEmail({ ...confirm, planName: evil });
      expect(email.html).not.toContain('<script>');
      expect(email.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    }
  });

  it('refuses a link that is not http(s)', () => {
    const message = {
      ...(messages('en')['cancellation'] as Extract<ClientEmail, { kind: 'cancellation' }>),
      resumeUrl: 'javascript:alert(1)',
    };
    expect(() => renderClientEmail(message)).toThrow(/javascript/);
  });

  it('a welcome email without an invoice number points to the account instead', () => {
    const started = messages('en')['subscription-started'] as Extract<ClientEmail, { kind: 'subscription-started' }>;
    const email = renderClientEmail({ ...started, invoiceNumber: '', invoiceUrl: `${site}/account/subscription` });
    expect(email.text).toContain('Go to my account');
    expect(email.text).not.toContain('View invoice');
  });

  it('subjects differ between kinds (a client can tell the emails apart)', () => {
    for (const locale of ['en', 'ar'] as const) {
      const subjects = Object.values(messages(locale)).map((m) => renderClientEmail(m).subject);
      expect(new Set(subjects).size).toBe(subjects.length);
    }
    expect(renderClientEmail(messages('en')['renewal-reminder']).subject).toMatch(/renew/i);
  });
});

describe('emails.json', () => {
  const load = (locale: string) =>
    JSON.parse(readFileSync(`public/locales/${locale}/emails.json`, 'utf8')) as Record<string, unknown>;
  /** Every key path with its value; plural forms (_zero … _other) count as their base key. */
  const entries = (node: unknown, prefix = ''): [string, unknown][] =>
    node && typeof node === 'object'
      ? Object.entries(node).flatMap(([k, v]) => entries(v, prefix ? `${prefix}.${k}` : k))
      : [[prefix.replace(/_(zero|one|two|few|many|other)$/, ''), node]];
  const en = entries(load('en'));
  const ar = entries(load('ar'));

  it('has the same keys in English and Arabic', () => {
    expect([...new Set(ar.map(([k]) => k))].sort()).toEqual([...new Set(en.map(([k]) => k))].sort());
  });

  it('has no empty or non-text values, and the same placeholders in both languages', () => {
    const placeholders = (list: [string, unknown][]) => {
      const map = new Map<string, string>();
      for (const [key, value] of list) {
        expect(typeof value, key).toBe('string');
        expect((value as string).trim(), key).not.toBe('');
        const names = [...(value as string).matchAll(/\{\{\s*(\w+)\s*\}\}/g)]
          .map((m) => m[1])
          .filter((n) => n !== 'count')
          .sort()
          .join(',');
        map.set(key, names);
      }
      return map;
    };
    const enPlaceholders = placeholders(en);
    const arPlaceholders = placeholders(ar);
    for (const [key, names] of enPlaceholders) expect(arPlaceholders.get(key), key).toBe(names);
  });

  it('gives Arabic every plural form', () => {
    const common = load('ar').common as Record<string, string>;
    for (const form of ['zero', 'one', 'two', 'few', 'many', 'other'])
      expect(common[`minutes_${form}`], form).toBeTruthy();
  });
});
