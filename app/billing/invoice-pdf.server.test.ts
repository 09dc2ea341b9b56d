import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatBillingAmount, formatBillingDate } from './format';
import { invoiceFontsDir, renderInvoicePdf, type InvoiceDocument } from './invoice-pdf.server';
import type { InvoiceView } from './types';

/**
 * The PDF is checked through poppler's pdftotext: the text a reader or a search gets out of it
 * (logical order, so Arabic words are not reversed and numbers sit where they belong) and the
 * position of words on the page (Arabic is laid out from the right).
 */
const hasPoppler = spawnSync('pdftotext', ['-v']).status === 0;
// In CI (.ci/run installs poppler-utils) a missing pdftotext is a failure, not a silent skip.
const inCi = Boolean(process.env.CI);
if (!hasPoppler && !inCi) console.warn('invoice PDF tests skipped: pdftotext (poppler-utils) is not installed');

const invoice: InvoiceView = {
  id: 'in_test_4',
  number: 'BWB-2026-0004',
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  status: 'paid',
  plan: 'business',
  amount: 125000,
  currency: 'sgd',
  created: '2026-03-14T09:30:00.000Z',
  periodStart: '2026-03-14T00:00:00.000Z',
  periodEnd: '2026-04-14T00:00:00.000Z',
  hostedUrl: null,
  pdfUrl: null,
};
const customer = { name: 'Layla Haddad', company: 'Haddad Trading LLC', email: 'layla@example.com' };
const firms: Record<'en' | 'ar', InvoiceDocument['firm']> = {
  en: {
    name: 'Bawaba Advisory',
    email: 'hello@bawaba-advisory.com',
    offices: [
      {
        city: 'Dubai',
        country: 'United Arab Emirates',
        address: 'Office 1804, Bay Square Building 2, Business Bay, Dubai',
      },
      { city: 'Singapore', country: 'Singapore', address: '#22-02, 10 Anson Road, Singapore 079903' },
    ],
  },
  ar: {
    name: 'بوابة للاستشارات',
    email: 'hello@bawaba-advisory.com',
    offices: [
      { city: 'دبي', country: 'الإمارات العربية المتحدة', address: 'مكتب 1804، باي سكوير مبنى 2، الخليج التجاري، دبي' },
      { city: 'سنغافورة', country: 'سنغافورة', address: '10 أنسون رود، الوحدة 22-02، سنغافورة 079903' },
    ],
  },
};
const planNames = { en: 'Business', ar: 'الأعمال' };

const dir = mkdtempSync(path.join(tmpdir(), 'invoice-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function render(locale: 'en' | 'ar', overrides: Partial<InvoiceDocument> = {}) {
  const pdf = await renderInvoicePdf({
    locale,
    invoice,
    planName: planNames[locale],
    customer,
    firm: firms[locale],
    ...overrides,
  });
  const file = path.join(dir, `${locale}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  // pdftotext marks right-to-left and left-to-right runs with embedding controls; drop them.
  const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(
    /[\u200e\u200f\u202a-\u202e]/g,
    '',
  );
  const bbox = execFileSync('pdftotext', ['-bbox', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  const words = [
    ...bbox.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<\/word>/g),
  ].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    xMax: Number(m[3]),
    // Words of right-to-left text come out in drawing order (right to left); read them back.
    text: /[\u0600-\u06ff]/.test(m[4]) ? [...m[4]].reverse().join('') : m[4],
  }));
  const pageWidth = Number(/<page width="([\d.]+)"/.exec(bbox)?.[1]);
  return { pdf, text, words, pageWidth };
}

/** Text without spaces, so pdftotext's placement of spaces at direction changes does not matter. */
const squash = (s: string) => s.replace(/\s+/g, '');

describe('invoice PDF formatting', () => {
  it('formats SGD with two decimals and dates in the locale, in UTC', () => {
    expect(formatBillingAmount(125000, 'en')).toMatch(/^SGD\s1,250\.00$/);
    expect(formatBillingAmount(125050, 'ar')).toMatch(/^\u200f?1,250\.50\sSGD$/);
    expect(formatBillingDate('2026-04-13T23:30:00.000Z', 'en')).toBe('13 April 2026');
    // ar-AE's default numbering: Latin digits, Arabic month names.
    expect(formatBillingDate('2026-03-14T00:00:00.000Z', 'ar')).toBe('14 مارس 2026');
  });

  it('finds its font files in app/billing/fonts', () => {
    expect(invoiceFontsDir()).toMatch(/app[\\/]billing[\\/]fonts$/);
  });
});

describe.runIf(inCi)('invoice PDF in CI', () => {
  it('has pdftotext to read the PDFs with', () => {
    expect(hasPoppler, 'pdftotext (Debian poppler-utils) is missing: .ci/run installs it').toBe(true);
  });
});

/** The xref table must point at every object (pdftotext would silently rebuild a broken one). */
function expectValidXref(pdf: Buffer) {
  const text = pdf.toString('latin1');
  const at = Number(/startxref\n(\d+)\n%%EOF\s*$/.exec(text)?.[1]);
  expect(text.startsWith('xref\n', at)).toBe(true);
  const entries = [...text.slice(at).matchAll(/^(\d{10}) 00000 n/gm)].map((m) => Number(m[1]));
  expect(entries.length).toBeGreaterThan(10);
  entries.forEach((offset, i) => expect(text.slice(offset, offset + 12), `object ${i + 1}`).toMatch(`${i + 1} 0 obj`));
}

describe.skipIf(!hasPoppler && !inCi)('invoice PDF', () => {
  it('English: the facts of the invoice, left to right', async () => {
    const { pdf, text, words, pageWidth } = await render('en');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expectValidXref(pdf);
    for (const fact of [
      'Bawaba Advisory',
      'Invoice',
      'BWB-2026-0004',
      'Issue date',
      '14 March 2026',
      '14 March 2026 to 14 April 2026',
      'Billed to'.toUpperCase(),
      'Layla Haddad',
      'Haddad Trading LLC',
      'layla@example.com',
      'Business: monthly advisory subscription',
      'SGD 1,250.00',
      'Total',
      'Paid',
      'Office 1804, Bay Square Building 2',
      '10 Anson Road, Singapore 079903',
      'hello@bawaba-advisory.com',
    ]) {
      expect(text, fact).toContain(fact);
    }
    // Left to right: the client's name on the left half, the invoice-number label left of its value.
    const layla = words.find((w) => w.text === 'Layla')!;
    expect(layla.x).toBeLessThan(pageWidth / 2);
    const label = words.find((w) => w.text === 'number')!;
    const value = words.filter((w) => w.text === 'BWB-2026-0004').find((w) => Math.abs(w.y - label.y) < 4)!;
    expect(value.x).toBeGreaterThan(label.x);
  });

  it('Arabic: shaped, right to left, with Latin names and numbers in their places', async () => {
    const { pdf, text, words, pageWidth } = await render('ar');
    expectValidXref(pdf);
    // Arabic phrases come out in reading order (not reversed letters or words), the lam-alef
    // ligature's letters included (للاستشارات once extracted as لالستشارات).
    for (const phrase of [
      'بوابة للاستشارات',
      'شكراً لتعاملك مع بوابة للاستشارات',
      'فاتورة',
      'رقم الفاتورة',
      'تاريخ الإصدار',
      'فترة الفوترة',
      'فاتورة إلى',
      'الوصف',
      'المبلغ',
      'الإجمالي',
      'مدفوعة',
      'جميع المبالغ بالدولار السنغافوري',
      'الإمارات العربية المتحدة',
      'باي سكوير',
      'أنسون رود',
    ]) {
      expect(text, phrase).toContain(phrase);
    }
    expect(text).not.toContain('ةروتافلا');
    expect(text).not.toContain('لالستشارات');
    // Latin names and numbers inside the Arabic page, whole and in order.
    for (const fact of [
      'BWB-2026-0004',
      'Layla Haddad',
      'Haddad Trading LLC',
      'layla@example.com',
      'hello@bawaba-advisory.com',
      '1,250.00',
    ]) {
      expect(text, fact).toContain(fact);
    }
    // Mixed runs in logical order (dates: day, month, year; the period from start to end).
    const flat = squash(text);
    for (const mixed of [
      'تاريخ الإصدار',
      '14 مارس 2026',
      'من 14 مارس 2026 إلى 14 أبريل 2026',
      'الأعمال: اشتراك استشاري شهري',
    ]) {
      expect(flat, mixed).toContain(squash(mixed));
    }
    // Right to left on the page: the billed-to block on the right half, each label right of its
    // value, and the issue date drawn as 2026 | مارس | 14 from left to right.
    const layla = words.find((w) => w.text === 'Layla')!;
    expect(layla.x).toBeGreaterThan(pageWidth / 2);
    const label = words.find((w) => w.text === 'رقم')!;
    const number = words.filter((w) => w.text === 'BWB-2026-0004').find((w) => Math.abs(w.y - label.y) < 4)!;
    expect(number.xMax).toBeLessThan(label.x);
    const issued = words.find((w) => w.text === 'الإصدار')!;
    const line = words.filter((w) => Math.abs(w.y - issued.y) < 4 && w.xMax < issued.x);
    expect(line.sort((a, b) => a.x - b.x).map((w) => w.text)).toEqual(['2026', 'مارس', '14']);
    // The total's amount is left of the word for total.
    const total = words.find((w) => w.text === 'الإجمالي')!;
    const totalAmount = words.filter((w) => w.text === '1,250.00').find((w) => Math.abs(w.y - total.y) < 6)!;
    expect(totalAmount.xMax).toBeLessThan(total.x);
  });

  it('a client named in Arabic reads as written on invoices in both languages', async () => {
    // Names with ligatures the font forms: الله is one glyph for four letters, للا has lam-alef.
    const arabicClient = {
      name: 'عبد الله الفلاسي',
      company: 'الفلاسي للاستيراد والتصدير',
      email: 'abdullah@example.ae',
    };
    for (const locale of ['ar', 'en'] as const) {
      const { pdf, text } = await render(locale, { customer: arabicClient });
      expectValidXref(pdf);
      for (const fact of [arabicClient.name, arabicClient.company, arabicClient.email]) {
        expect(text, `${locale}: ${fact}`).toContain(fact);
      }
      expect(text, locale).toContain(locale === 'ar' ? 'بوابة للاستشارات' : 'Bawaba Advisory');
      expect(text, locale).toContain('1,250.00');
    }
  });

  it('shows the status in the language and leaves out a missing company', async () => {
    const open = { ...invoice, status: 'open' as const };
    const en = await render('en', { invoice: open, customer: { ...customer, company: null } });
    expect(en.text).toContain('Unpaid');
    expect(en.text).not.toContain('Haddad Trading');
    const ar = await render('ar', { invoice: open, customer: { ...customer, company: null } });
    expect(ar.text).toContain('غير مدفوعة');
    expect(ar.text).not.toContain('Haddad Trading');
  });
});
