import { readFileSync } from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { createChatLimiter } from './chat-limit';
import { createMemoryStorage } from './chat-limit-storage';
import { renderToast, toastFor } from './chat-toast';

const MIN = 60_000;

// ---------------------------------------------------------------- toasts

const locales = path.resolve(__dirname, '../../../public/locales');
const readJson = (lng: string, ns: string) =>
  JSON.parse(readFileSync(path.join(locales, lng, `${ns}.json`), 'utf8')) as Record<string, unknown>;

async function translator(lng: 'en' | 'ar') {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng,
    fallbackLng: 'en',
    ns: ['chat'],
    defaultNS: 'chat',
    resources: { en: { chat: readJson('en', 'chat') }, ar: { chat: readJson('ar', 'chat') } },
    interpolation: { escapeValue: false },
  });
  return (key: string, values?: Record<string, unknown>) => i18n.t(key, values ?? {}) as string;
}

describe('toastFor', () => {
  it('daily limit: destructive, with the limit', () => {
    expect(toastFor({ status: 'blocked', reason: 'daily', waitMinutes: 600, used: 3, max: 3 })).toEqual({
      titleKey: 'chat:rateLimitTitle',
      descriptionKey: 'chat:dailyLimit',
      values: { max: 3 },
      variant: 'destructive',
    });
  });

  it('wait: destructive, the minutes as count, and the attempts-used text appended', () => {
    expect(toastFor({ status: 'blocked', reason: 'wait', waitMinutes: 15, used: 2, max: 3 })).toEqual({
      titleKey: 'chat:rateLimitTitle',
      descriptionKey: 'chat:wait',
      values: { count: 15, used: 2, max: 3 },
      appendKey: 'chat:attemptsUsed',
      variant: 'destructive',
    });
  });

  it('opened (and allowed): default variant with the remaining messages', () => {
    const expected = {
      titleKey: 'chat:openingTitle',
      descriptionKey: 'chat:remaining',
      values: { remaining: 2, max: 3 },
      variant: 'default',
    };
    expect(toastFor({ status: 'opened', used: 1, remaining: 2, max: 3 })).toEqual(expected);
    expect(toastFor({ status: 'allowed', remaining: 2, max: 3 })).toEqual(expected);
  });

  it('verify: no toast (the dialog opens)', () => {
    expect(toastFor({ status: 'verify' })).toBeNull();
  });

  it('renders the exact English texts of the spec through i18next', async () => {
    const t = await translator('en');
    let now = Date.UTC(2025, 2, 10, 5, 0, 0);
    const limiter = createChatLimiter({ storage: createMemoryStorage(), now: () => now, timeZone: 'Asia/Dubai' });
    const advance = (ms: number) => (now += ms);
    const opened = limiter.attempt();
    expect(renderToast(toastFor(opened)!, t)).toEqual({
      title: 'Opening WhatsApp',
      description: '2 of 3 daily messages remaining.',
      variant: 'default',
    });
    const wait = limiter.attempt();
    expect(renderToast(toastFor(wait)!, t)).toEqual({
      title: 'Rate limit reached',
      description: 'Please wait 5 minute(s) before contacting us again. (1/3 attempts used today)',
      variant: 'destructive',
    });
    advance(5 * MIN);
    limiter.attempt();
    advance(15 * MIN);
    limiter.markVerified();
    const daily = limiter.attempt();
    expect(renderToast(toastFor(daily)!, t)).toEqual({
      title: 'Rate limit reached',
      description: 'Daily limit reached (3). Please try again tomorrow.',
      variant: 'destructive',
    });
    expect(
      renderToast(toastFor({ status: 'blocked', reason: 'wait', waitMinutes: 1, used: 1, max: 3 })!, t).description,
    ).toBe('Please wait 1 minute(s) before contacting us again. (1/3 attempts used today)');
  });

  it('renders Arabic with the right plural form of minutes', async () => {
    const t = await translator('ar');
    const wait = (n: number) =>
      renderToast(toastFor({ status: 'blocked', reason: 'wait', waitMinutes: n, used: 1, max: 3 })!, t);
    expect(wait(5).title).toBe('تم بلوغ حد الاستخدام');
    expect(wait(5).description).toBe(
      'يُرجى الانتظار 5 دقائق قبل التواصل معنا مرة أخرى. (المحاولات المستخدمة اليوم: 1/3)',
    );
    expect(wait(15).description).toContain('15 دقيقة');
    expect(wait(60).description).toContain('60 دقيقة');
    expect(wait(1).description).toContain('دقيقة واحدة');
    expect(wait(2).description).toContain('دقيقتين');
    expect(renderToast(toastFor({ status: 'opened', used: 1, remaining: 2, max: 3 })!, t).description).toBe(
      'الرسائل اليومية المتبقية: 2 من 3.',
    );
  });
});

// ---------------------------------------------------------------- locale files

function flatten(obj: Record<string, unknown>, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(obj)) {
    if (v && typeof v === 'object') {
      for (const [kk, vv] of flatten(v as Record<string, unknown>, `${prefix}${k}.`)) out.set(kk, vv);
    } else out.set(prefix + k, String(v));
  }
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('chat.json', () => {
  const en = flatten(readJson('en', 'chat'));
  const ar = flatten(readJson('ar', 'chat'));

  it('has the same keys in en and ar, all non-empty, Arabic differing from English', () => {
    expect([...ar.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, value] of en) {
      expect(value, key).not.toBe('');
      expect(ar.get(key), key).not.toBe('');
      if (value.length > 3) expect(ar.get(key), key).not.toBe(value);
    }
  });

  it('uses the same placeholders in both languages (Arabic plural forms may spell the number)', () => {
    for (const [key, value] of en) {
      const arValue = ar.get(key) ?? '';
      if (/_(zero|one|two)$/.test(key)) {
        expect(placeholders(value), key).toEqual(expect.arrayContaining(placeholders(arValue)));
      } else {
        expect(placeholders(arValue), key).toEqual(placeholders(value));
      }
    }
  });

  it('holds the spec texts', () => {
    expect(en.get('verify.title')).toBe('Security Verification');
    expect(en.get('verify.answerLabel')).toBe('Your answer');
    expect(en.get('verify.invalidNumber')).toBe('Please enter a valid number');
    expect(en.get('verify.incorrect')).toBe('Incorrect answer, please try again');
    expect(en.get('verify.failedTitle')).toBe('Verification Failed');
    expect(en.get('verify.failed')).toBe("Let's try with a different question.");
    expect(en.get('verify.successTitle')).toBe('Verification Successful');
    expect(en.get('verify.success')).toBe('You can now contact us via WhatsApp.');
    expect(en.get('tooltip')).toBe('Chat on WhatsApp');
    expect(en.get('booking.title')).toBe('Schedule a Consultation');
    expect(en.get('booking.whatsapp')).toBe('WhatsApp Us');
    expect(en.get('booking.testLink')).toBe('Test Direct Link');
  });
});
