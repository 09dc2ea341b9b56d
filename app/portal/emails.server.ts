import { formatBillingAmount, formatBillingDate } from '~/billing/format';
import { intlLocale, localizePath, type Locale } from '~/i18n';
import en from '../../public/locales/en/emails.json';
import ar from '../../public/locales/ar/emails.json';

/**
 * The emails a client receives, in the client's language, as a subject, a plain-text body and
 * an HTML body with the same content. Every word comes from public/locales/{en,ar}/emails.json;
 * amounts (cents, SGD) and dates (ISO, read in UTC like the billing clock) are formatted with
 * Intl in the email's language.
 */
export type ClientEmail = { locale: Locale; name: string; siteUrl: string } & (
  | { kind: 'sign-in' | 'editor-sign-in'; code: string; link: string; minutes: number }
  | { kind: 'checkout-confirm'; code: string; link: string; minutes: number; planName: string }
  | {
      kind: 'subscription-started';
      planName: string;
      amount: number;
      periodEnd: string;
      invoiceNumber: string;
      invoiceUrl: string;
    }
  | { kind: 'plan-changed'; oldPlanName: string; newPlanName: string; effectiveAt: string; newAmount: number }
  | { kind: 'change-withdrawn'; planName: string }
  | { kind: 'cancellation'; planName: string; accessEndsAt: string; resumeUrl: string }
  | { kind: 'renewal-reminder'; planName: string; renewsAt: string; amount: number; manageUrl: string }
  | { kind: 'payment-failed'; planName: string; amount: number; invoiceNumber: string; manageUrl: string }
  // Newsletter emails (app/features/newsletter/list-mail.server.ts adds their List-Unsubscribe headers).
  | { kind: 'newsletter-confirm'; confirmUrl: string; days: number; unsubscribeUrl: string }
  | { kind: 'newsletter-welcome'; unsubscribeUrl: string }
);

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

export type EmailStrings = typeof en;
export const emailStrings: Record<Locale, EmailStrings> = { en, ar };

type Values = Record<string, string>;
/** A sentence: its template and the values it is filled with (escaped separately in HTML). */
type Sentence = { template: string; values?: Values };
type Block =
  { type: 'p'; sentence: Sentence } | { type: 'code'; code: string } | { type: 'button'; label: string; url: string };

interface Content {
  subject: Sentence;
  heading: string;
  blocks: Block[];
}

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

function fill(template: string, values: Values = {}): string {
  return template.replace(PLACEHOLDER, (_, key: string) => values[key] ?? '');
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The template escaped, each value escaped and isolated (<bdi>) so a Latin name in Arabic, or the reverse, keeps its order. */
function fillHtml(template: string, values: Values = {}): string {
  let html = '';
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    html += escapeHtml(template.slice(last, match.index));
    const value = values[match[1]!] ?? '';
    html += value ? `<bdi>${escapeHtml(value)}</bdi>` : '';
    last = match.index! + match[0].length;
  }
  return html + escapeHtml(template.slice(last));
}

/** One line, no control characters: a subject never carries a header break. */
function oneLine(value: string): string {
  return (
    value
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** Links go out only as absolute http(s) URLs. */
function checkedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new Error(`client email: refusing a ${parsed.protocol} link`);
  return parsed.href;
}

/** A count with the language's plural form (i18next suffixes: _zero, _one, _two, _few, _many, _other). */
function plural(table: Record<string, string>, key: string, count: number, locale: Locale): string {
  const form = new Intl.PluralRules(intlLocale[locale]).select(count);
  const template = table[`${key}_${form}`] ?? table[`${key}_other`] ?? '';
  return fill(template, { count: new Intl.NumberFormat(intlLocale[locale]).format(count) });
}

function content(message: ClientEmail, s: EmailStrings): Content {
  const { locale } = message;
  const firm = s.firm;
  const date = (iso: string) => formatBillingDate(iso, locale);
  const money = (cents: number) => formatBillingAmount(cents, locale);
  const p = (template: string, values?: Values): Block => ({ type: 'p', sentence: { template, values } });
  const button = (label: string, url: string): Block => ({ type: 'button', label, url: checkedUrl(url) });
  const subscriptionPage = () =>
    `${message.siteUrl.replace(/\/+$/, '')}${localizePath('/account/subscription', locale)}`;

  switch (message.kind) {
    case 'sign-in':
    case 'editor-sign-in': {
      const t = message.kind === 'editor-sign-in' ? s.editorSignIn : s.signIn;
      return {
        subject: { template: t.subject, values: { firm } },
        heading: t.heading,
        blocks: [
          p(t.intro),
          { type: 'code', code: message.code },
          p(t.link),
          button(t.button, message.link),
          p(t.expires, { minutes: plural(s.common, 'minutes', message.minutes, locale) }),
          p(t.ignore),
        ],
      };
    }
    case 'checkout-confirm': {
      const t = s.checkoutConfirm;
      const plan = message.planName;
      return {
        subject: { template: t.subject, values: { firm, plan } },
        heading: t.heading,
        blocks: [
          p(t.intro, { plan }),
          { type: 'code', code: message.code },
          p(t.link),
          button(t.button, message.link),
          p(t.charge),
          p(t.expires, { minutes: plural(s.common, 'minutes', message.minutes, locale) }),
          p(t.ignore),
        ],
      };
    }
    case 'subscription-started': {
      const t = s.subscriptionStarted;
      const plan = message.planName;
      return {
        subject: { template: t.subject, values: { firm, plan } },
        heading: t.heading,
        blocks: [
          p(t.body, { plan, amount: money(message.amount) }),
          p(t.renews, { date: date(message.periodEnd) }),
          message.invoiceNumber ? p(t.invoice, { number: message.invoiceNumber }) : p(t.invoiceMissing),
          button(message.invoiceNumber ? t.button : t.buttonAccount, message.invoiceUrl),
          p(t.account),
        ],
      };
    }
    case 'plan-changed': {
      const t = s.planChanged;
      const when = date(message.effectiveAt);
      return {
        subject: { template: t.subject, values: { plan: message.newPlanName } },
        heading: t.heading,
        blocks: [
          p(t.body, { oldPlan: message.oldPlanName, newPlan: message.newPlanName, date: when }),
          p(t.price, { amount: money(message.newAmount), oldPlan: message.oldPlanName }),
          p(t.withdraw, { date: when }),
          button(t.button, subscriptionPage()),
        ],
      };
    }
    case 'change-withdrawn': {
      const t = s.changeWithdrawn;
      return {
        subject: { template: t.subject },
        heading: t.heading,
        blocks: [p(t.body, { plan: message.planName }), button(t.button, subscriptionPage())],
      };
    }
    case 'cancellation': {
      const t = s.cancellation;
      return {
        subject: { template: t.subject, values: { plan: message.planName } },
        heading: t.heading,
        blocks: [
          p(t.body, { plan: message.planName }),
          p(t.access, { date: date(message.accessEndsAt) }),
          p(t.resume),
          button(t.button, message.resumeUrl),
        ],
      };
    }
    case 'renewal-reminder': {
      const t = s.renewalReminder;
      const when = date(message.renewsAt);
      return {
        subject: { template: t.subject, values: { plan: message.planName, date: when } },
        heading: t.heading,
        blocks: [
          p(t.body, { plan: message.planName, date: when, amount: money(message.amount) }),
          p(t.manage),
          button(t.button, message.manageUrl),
        ],
      };
    }
    case 'payment-failed': {
      const t = s.paymentFailed;
      const values = { plan: message.planName, amount: money(message.amount), number: message.invoiceNumber };
      return {
        subject: { template: t.subject, values: { number: message.invoiceNumber } },
        heading: t.heading,
        blocks: [p(message.planName ? t.body : t.bodyNoPlan, values), p(t.retry), button(t.button, message.manageUrl)],
      };
    }
    case 'newsletter-confirm': {
      const t = s.newsletterConfirm;
      return {
        subject: { template: t.subject, values: { firm } },
        heading: t.heading,
        blocks: [
          p(t.intro, { firm }),
          button(t.button, message.confirmUrl),
          p(t.expires, { days: plural(s.common, 'days', message.days, locale) }),
          p(t.ignore),
        ],
      };
    }
    case 'newsletter-welcome': {
      const t = s.newsletterWelcome;
      return {
        subject: { template: t.subject, values: { firm } },
        heading: t.heading,
        blocks: [
          p(t.body),
          button(t.button, `${message.siteUrl.replace(/\/+$/, '')}${localizePath('/blog', locale)}`),
          p(t.leave),
        ],
      };
    }
  }
}

/** A newsletter email's footer names why it came and carries its unsubscribe link; a client email's names the account. */
function footerOf(message: ClientEmail, s: EmailStrings): { text: string; unsubscribe: string | null } {
  return 'unsubscribeUrl' in message
    ? { text: fill(s.list.footer, { firm: s.firm }), unsubscribe: checkedUrl(message.unsubscribeUrl) }
    : { text: fill(s.common.footer, { firm: s.firm }), unsubscribe: null };
}

const COLORS = {
  text: '#0f2a44',
  muted: '#33597f',
  page: '#f4f6f9',
  card: '#ffffff',
  accent: '#c9a227',
  button: '#0f2a44',
  link: '#173c5e',
  codeBg: '#eef3f8',
};

function renderText(
  c: Content,
  s: EmailStrings,
  greeting: string,
  siteUrl: string,
  footer: ReturnType<typeof footerOf>,
): string {
  const lines: string[] = [
    s.firm,
    '',
    c.heading,
    '='.repeat(Math.min(60, Math.max(3, c.heading.length))),
    '',
    greeting,
    '',
  ];
  for (const block of c.blocks) {
    if (block.type === 'p') lines.push(fill(block.sentence.template, block.sentence.values), '');
    else if (block.type === 'code') lines.push(`    ${block.code}`, '');
    else lines.push(`${block.label}:`, block.url, '');
  }
  lines.push(
    s.common.signoff,
    fill(s.common.team, { firm: s.firm }),
    '',
    '-- ',
    footer.text,
    ...(footer.unsubscribe ? [s.list.unsubscribe, footer.unsubscribe] : []),
    siteUrl,
    '',
  );
  return lines.join('\n');
}

function renderHtml(
  c: Content,
  s: EmailStrings,
  locale: Locale,
  greeting: Sentence,
  subject: string,
  siteUrl: string,
  footer: ReturnType<typeof footerOf>,
): string {
  const rtl = locale === 'ar';
  const dir = rtl ? 'rtl' : 'ltr';
  const start = rtl ? 'right' : 'left';
  const font = rtl
    ? "'Noto Kufi Arabic', Tahoma, 'Segoe UI', Arial, sans-serif"
    : "Inter, 'Segoe UI', Helvetica, Arial, sans-serif";
  const para = `margin:0 0 16px;font-size:16px;line-height:1.6;color:${COLORS.text};text-align:${start};`;
  const body: string[] = [];
  for (const block of c.blocks) {
    if (block.type === 'p') {
      body.push(`<p style="${para}">${fillHtml(block.sentence.template, block.sentence.values)}</p>`);
    } else if (block.type === 'code') {
      body.push(
        `<p style="margin:0 0 24px;text-align:${start};"><span dir="ltr" style="display:inline-block;padding:12px 20px;background-color:${COLORS.codeBg};border-radius:6px;font-family:'SFMono-Regular',Consolas,'Courier New',monospace;font-size:32px;font-weight:bold;letter-spacing:6px;color:${COLORS.text};">${escapeHtml(block.code)}</span></p>`,
      );
    } else {
      const href = escapeHtml(block.url);
      body.push(
        `<p style="margin:8px 0 24px;text-align:${start};"><a href="${href}" style="display:inline-block;padding:12px 24px;background-color:${COLORS.button};border-radius:6px;color:#ffffff;font-size:16px;font-weight:bold;line-height:1.4;text-decoration:none;">${escapeHtml(block.label)}</a></p>`,
        `<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:${COLORS.muted};text-align:${start};">${escapeHtml(s.common.buttonFallback)}<br><a href="${href}" dir="ltr" style="color:${COLORS.link};word-break:break-all;">${href}</a></p>`,
      );
    }
  }
  const site = escapeHtml(siteUrl);
  const host = escapeHtml(new URL(siteUrl).host);
  return `<!DOCTYPE html>
<html lang="${locale}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:${COLORS.page};">
<div role="article" aria-roledescription="email" aria-label="${escapeHtml(subject)}" lang="${locale}" dir="${dir}" style="margin:0;padding:24px 12px;background-color:${COLORS.page};font-family:${font};">
<div style="max-width:560px;margin:0 auto;padding:32px 24px;background-color:${COLORS.card};border-top:4px solid ${COLORS.accent};border-radius:8px;text-align:${start};">
<p style="margin:0 0 24px;font-size:15px;font-weight:bold;color:${COLORS.muted};text-align:${start};">${escapeHtml(s.firm)}</p>
<h1 style="margin:0 0 20px;font-size:24px;line-height:1.3;font-weight:bold;color:${COLORS.text};text-align:${start};">${escapeHtml(c.heading)}</h1>
<p style="${para}">${fillHtml(greeting.template, greeting.values)}</p>
${body.join('\n')}
<p style="margin:24px 0 0;font-size:16px;line-height:1.6;color:${COLORS.text};text-align:${start};">${escapeHtml(s.common.signoff)}<br>${fillHtml(s.common.team, { firm: s.firm })}</p>
</div>
<div style="max-width:560px;margin:0 auto;padding:16px 24px;font-size:12px;line-height:1.5;color:${COLORS.muted};text-align:${start};">
<p style="margin:0 0 4px;">${escapeHtml(footer.text)}</p>${
    footer.unsubscribe
      ? `\n<p style="margin:0 0 4px;">${escapeHtml(s.list.unsubscribe)} <a href="${escapeHtml(footer.unsubscribe)}" dir="ltr" style="color:${COLORS.muted};">${escapeHtml(footer.unsubscribe)}</a></p>`
      : ''
  }
<p style="margin:0;"><a href="${site}" dir="ltr" style="color:${COLORS.muted};">${host}</a></p>
</div>
</div>
</body>
</html>
`;
}

export function renderClientEmail(message: ClientEmail): RenderedEmail {
  const s = emailStrings[message.locale];
  const siteUrl = checkedUrl(message.siteUrl).replace(/\/+$/, '');
  const c = content(message, s);
  const subject = oneLine(
    fill(
      c.subject.template,
      Object.fromEntries(Object.entries(c.subject.values ?? {}).map(([k, v]) => [k, oneLine(v)])),
    ),
  );
  const name = oneLine(message.name);
  const greeting: Sentence = name
    ? { template: s.common.greeting, values: { name } }
    : { template: s.common.greetingNoName };
  const footer = footerOf(message, s);
  return {
    subject,
    text: renderText(c, s, fill(greeting.template, greeting.values), siteUrl, footer),
    html: renderHtml(c, s, message.locale, greeting, subject, siteUrl, footer),
  };
}
