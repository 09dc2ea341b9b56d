import { UNSUBSCRIBED_KEEP_DAYS } from '~/features/newsletter/newsletter.server';
import { CONFIRM_LINK_DAYS } from '~/features/newsletter/wording';
import type { Locale } from '~/i18n';
import { duration } from '~/lib/duration';
import { RETENTION_DAYS } from './retention.server';
import { SESSION_DAYS } from './session.server';
import { PENDING_MINUTES } from './signin.server';

/**
 * The retention table the privacy policy shows (issue 42, item 4), from the same numbers the
 * clean-up job enforces (RETENTION_DAYS, retention.server.ts): every key of RETENTION_DAYS must be
 * described here (the type says so), and the rows without a number name the rule that decides.
 */
type Text = Record<Locale, string>;
export interface RetentionRow {
  key: string;
  what: Text;
  period: Text;
}

const arabicYears = (y: number) => (y === 1 ? 'سنة' : y === 2 ? 'سنتين' : `${y} سنوات`);
const days = (n: number): Text => {
  const years = Math.round(n / 365);
  const { en, ar } = duration(n, 'day');
  return {
    en: `${en}${n >= 365 ? ` (about ${years} ${years === 1 ? 'year' : 'years'})` : ''}`,
    ar: `${ar}${n >= 365 ? ` (نحو ${arabicYears(years)})` : ''}`,
  };
};

const WHAT: Record<keyof typeof RETENTION_DAYS, Text> = {
  mailBody: { en: 'The content of emails we sent you', ar: 'محتوى رسائل البريد الإلكتروني التي أرسلناها إليك' },
  mailRow: {
    en: 'The record that an email was sent (address, kind, time)',
    ar: 'سجل إرسال الرسالة (العنوان والنوع والوقت)',
  },
  handledEvents: { en: 'Payment events already handled', ar: 'أحداث الدفع التي عولجت' },
  renewalReminders: { en: 'Renewal reminders sent', ar: 'تذكيرات التجديد المرسلة' },
  faqQuestions: {
    en: 'Questions sent through the FAQ form (name, email, phone, question)',
    ar: 'الأسئلة المرسلة عبر نموذج الأسئلة الشائعة (الاسم والبريد والهاتف والسؤال)',
  },
  checkoutsOpen: {
    en: 'Subscription checkouts never completed, after they expire',
    ar: 'عمليات الاشتراك التي لم تكتمل، بعد انتهاء صلاحيتها',
  },
  checkoutsComplete: { en: 'Completed subscription checkouts', ar: 'عمليات الاشتراك المكتملة' },
  billingEventsDelivered: { en: 'Billing notifications once delivered', ar: 'إشعارات الفوترة بعد تسليمها' },
  accounting: {
    en: 'Invoices, ended subscriptions and billing customers (tax records)',
    ar: 'الفواتير والاشتراكات المنتهية وبيانات العملاء في الفوترة (سجلات ضريبية)',
  },
  accountsWithoutSubscription: {
    en: 'Client accounts, after the last subscription ended',
    ar: 'حسابات العملاء بعد انتهاء آخر اشتراك',
  },
  consentRecords: {
    en: 'Your cookie choices (a random identifier, the choice and its date; no IP address)',
    ar: 'اختياراتك بشأن ملفات تعريف الارتباط (معرّف عشوائي والاختيار وتاريخه، دون عنوان IP)',
  },
};

export const RETENTION_TABLE: readonly RetentionRow[] = [
  ...(Object.keys(WHAT) as (keyof typeof RETENTION_DAYS)[]).map((key) => ({
    key,
    what: WHAT[key],
    period: days(RETENTION_DAYS[key]),
  })),
  {
    key: 'sessions',
    what: { en: 'Sign-in sessions', ar: 'جلسات تسجيل الدخول' },
    period: {
      en: `Until sign-out, at most ${SESSION_DAYS} days`,
      ar: `حتى تسجيل الخروج، و${SESSION_DAYS} يومًا على الأكثر`,
    },
  },
  {
    key: 'signinCodes',
    what: { en: 'Sign-in codes', ar: 'رموز تسجيل الدخول' },
    period: { en: `${PENDING_MINUTES} minutes`, ar: `${PENDING_MINUTES} دقيقة` },
  },
  {
    key: 'newsletter',
    what: { en: 'Newsletter sign-ups', ar: 'الاشتراكات في النشرة الإخبارية' },
    period: {
      en: `Confirmed: until you unsubscribe, then ${duration(UNSUBSCRIBED_KEEP_DAYS, 'day').en} (the record that you withdrew). Never confirmed: ${duration(CONFIRM_LINK_DAYS, 'day').en} after the last confirmation email`,
      ar: `المؤكَّدة: حتى إلغاء اشتراكك، ثم ${duration(UNSUBSCRIBED_KEEP_DAYS, 'day').ar} (سجلّ سحب موافقتك). غير المؤكَّدة: ${duration(CONFIRM_LINK_DAYS, 'day').ar} بعد آخر رسالة تأكيد`,
    },
  },
];
