import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, type Locale } from '~/i18n';
import { duration } from '~/lib/duration';
import { PREVIEW_SECONDS } from '~/lib/preview.server';
import { SESSION_DAYS } from '~/portal/session.server';
import { SIGNED_IN_HINT_COOKIE } from '~/portal/signed-in-hint';
import { PENDING_MINUTES } from '~/portal/signin.server';
import { CONSENT_COOKIE, CONSENT_MAX_AGE_DAYS } from './consent';

/**
 * Every cookie this site can set, in one list (issue 42, item 4): the cookies policy renders it
 * (app/features/legal/policy-table.server.tsx) and tests/e2e/cookie-list.spec.ts fails on any cookie a browser receives
 * that it does not name. A new cookie is added here first. Lifetimes come from the constants the
 * code that sets each cookie uses, so the policy cannot drift from them.
 */
export type CookieCategory = 'necessary' | 'analytics' | 'marketing';

export interface CookieEntry {
  /** The names it is set under; `*` ends a prefix (`_ga_*`). Over HTTPS the portal's cookies carry `__Host-`. */
  names: readonly string[];
  category: CookieCategory;
  /** Who sets it: this site, or a tag loaded through Google Tag Manager after consent. */
  setBy: 'site' | 'google';
  purpose: Record<Locale, string>;
  lifetime: Record<Locale, string>;
}

const DAY = 24 * 60 * 60;
const days = (n: number) => duration(n, 'day');
const minutes = (n: number) => duration(n, 'minute');
const hours = (n: number) => duration(n, 'hour');
const months = (n: number) => duration(n, 'month');
/** Both spellings of a portal cookie (`__Host-` over HTTPS in production, `__` otherwise). */
const portal = (name: string) => [`__Host-${name}`, `__${name}`];

export const COOKIES: readonly CookieEntry[] = [
  {
    names: [LOCALE_COOKIE],
    category: 'necessary',
    setBy: 'site',
    purpose: {
      en: 'Remembers the language you chose, so that the home page opens in it.',
      ar: 'يحفظ اللغة التي اخترتها لتُفتح الصفحة الرئيسية بها.',
    },
    lifetime: months(Math.round(LOCALE_COOKIE_MAX_AGE / DAY / 30.4)),
  },
  {
    names: [CONSENT_COOKIE],
    category: 'necessary',
    setBy: 'site',
    purpose: {
      en: 'Keeps your cookie choice, the version of this policy you answered and a random identifier of your choice (no personal details), so that we can show that you agreed and do not ask on every page.',
      ar: 'يحفظ اختيارك بشأن ملفات تعريف الارتباط، وإصدار هذه السياسة الذي أجبت عنه، ومعرّفًا عشوائيًا لاختيارك (دون أي بيانات شخصية)، لنتمكن من إثبات موافقتك ولا نسألك في كل صفحة.',
    },
    lifetime: days(CONSENT_MAX_AGE_DAYS),
  },
  {
    names: portal('client'),
    category: 'necessary',
    setBy: 'site',
    purpose: {
      en: 'Keeps a client signed in to the client area (signed, not readable by scripts). Removed when you sign out.',
      ar: 'يُبقي العميل مسجّلًا للدخول إلى منطقة العملاء (موقَّع ولا تقرؤه البرامج النصية)، ويُحذف عند تسجيل الخروج.',
    },
    lifetime: days(SESSION_DAYS),
  },
  {
    names: [SIGNED_IN_HINT_COOKIE],
    category: 'necessary',
    setBy: 'site',
    purpose: {
      en: 'Shows "My account" instead of "Client Login" on pages while a client is signed in. It carries no identifier.',
      ar: 'يعرض «حسابي» بدلًا من «دخول العملاء» في الصفحات أثناء تسجيل دخول العميل، ولا يحمل أي معرّف.',
    },
    lifetime: days(SESSION_DAYS),
  },
  {
    names: portal('signin'),
    category: 'necessary',
    setBy: 'site',
    purpose: {
      en: 'While you sign in by emailed code: which address the code was sent to, so that the code is checked against it.',
      ar: 'أثناء تسجيل الدخول برمز عبر البريد الإلكتروني: العنوان الذي أُرسل إليه الرمز، للتحقق من الرمز مقابله.',
    },
    lifetime: minutes(PENDING_MINUTES),
  },
  {
    names: portal('lake_signin'),
    category: 'necessary',
    setBy: 'site',
    purpose: {
      en: 'Editors only: the same, while an editor signs in to the content studio.',
      ar: 'للمحررين فقط: الغرض نفسه أثناء تسجيل دخول المحرر إلى استوديو المحتوى.',
    },
    lifetime: minutes(PENDING_MINUTES),
  },
  {
    names: ['__preview'],
    category: 'necessary',
    setBy: 'site',
    purpose: {
      en: 'Editors only: shows unpublished content while an editor previews it.',
      ar: 'للمحررين فقط: يعرض المحتوى غير المنشور أثناء معاينة المحرر له.',
    },
    lifetime: hours(PREVIEW_SECONDS / 3600),
  },
  {
    names: ['_ga', '_ga_*'],
    category: 'analytics',
    setBy: 'google',
    purpose: {
      en: 'Google Analytics, through Google Tag Manager, only if you accept analytics: tells visits apart to count pages viewed and bookings made.',
      ar: 'Google Analytics عبر Google Tag Manager، فقط إذا قبلت ملفات التحليل: يميّز الزيارات لعدّ الصفحات التي شوهدت والحجوزات التي تمت.',
    },
    lifetime: duration(2, 'year'),
  },
  {
    names: ['_gcl_au', '_gcl_aw', '_gcl_dc'],
    category: 'marketing',
    setBy: 'google',
    purpose: {
      en: 'Google Ads, through Google Tag Manager, only if you accept marketing: links a booking to the advertisement that led to it.',
      ar: 'Google Ads عبر Google Tag Manager، فقط إذا قبلت ملفات التسويق: يربط الحجز بالإعلان الذي أدى إليه.',
    },
    lifetime: days(90),
  },
];

/** The entry naming a cookie, or undefined: what the browser test asks of every cookie it sees. */
export function cookieEntryOf(name: string, list: readonly CookieEntry[] = COOKIES): CookieEntry | undefined {
  return list.find((entry) =>
    entry.names.some((pattern) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern)),
  );
}
