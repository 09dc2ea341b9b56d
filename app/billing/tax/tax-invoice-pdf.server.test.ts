import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Locale } from '~/i18n';
import { renderInvoicePdf } from '../invoice-pdf.server';
import type { InvoiceView } from '../types';
import { DEMO_TAX_PROFILE, type TaxProfile } from './profile';
import { buildSnapshot, type ClientDetails } from './snapshot';
import { taxInvoiceView } from './view';

/** A UAE client's, an overseas client's and a Singapore client's tax invoice, read back with pdftotext. */
const dir = mkdtempSync(path.join(tmpdir(), 'tax-invoice-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const uae: TaxProfile = {
  ...DEMO_TAX_PROFILE,
  demo: false,
  legalName: { en: 'Bawaba Advisory FZ-LLC', ar: 'بوابة للاستشارات ش.م.ح-ذ.م.م' },
  address: {
    en: 'Office 1804, Bay Square 2\nBusiness Bay, Dubai, UAE',
    ar: 'مكتب 1804، باي سكوير 2\nالخليج التجاري، دبي',
  },
  registrationNumber: '100123456789012',
  pricesIncludeTax: false,
};
const sg: TaxProfile = {
  ...uae,
  legalName: { en: 'Bawaba Advisory Pte. Ltd.', ar: 'بوابة للاستشارات المحدودة' },
  address: { en: '10 Anson Road #22-02\nSingapore 079903', ar: '10 أنسون رود، الوحدة 22-02\nسنغافورة 079903' },
  country: 'SG',
  registrationNumber: '201912345K',
  standardRatePercent: 9,
};
const clients: Record<string, ClientDetails> = {
  uae: {
    name: 'Haddad Trading LLC',
    company: null,
    email: 'layla@example.com',
    address: 'Office 2207, Cluster X, JLT\nDubai, United Arab Emirates',
    country: 'AE',
    registrationNumber: '100234567800003',
  },
  overseas: {
    name: 'Saleh Logistics Pte. Ltd.',
    company: null,
    email: 'omar@example.com',
    address: '1 Raffles Place\nSingapore 048616',
    country: 'SG',
    registrationNumber: '201912345K',
  },
  sg: {
    name: 'Tan Holdings Pte. Ltd.',
    company: null,
    email: 'tan@example.com',
    address: '8 Marina View\nSingapore 018960',
    country: 'SG',
    registrationNumber: 'M2-1234567-8'.replace(/-/g, ''),
  },
};
const invoice: InvoiceView = {
  id: 'in_1',
  number: 'BWB-2026-0042',
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  status: 'paid',
  plan: 'business',
  amount: 157500,
  currency: 'sgd',
  created: '2026-11-02T08:00:00.000Z',
  periodStart: '2026-11-02T08:00:00.000Z',
  periodEnd: '2026-12-02T08:00:00.000Z',
  hostedUrl: null,
  pdfUrl: null,
};
const rate = { rate: '2.8412', date: '2026-11-02', source: 'CBUAE', fixture: false };

/** Renders a tax invoice to a file of the test's folder; returns its path. */
type Lines = Parameters<typeof buildSnapshot>[0]['lines'];
const oneLine: Lines = [
  { description: { en: 'Business', ar: 'الأعمال' }, plan: 'business', quantity: 1, price: 150000 },
];

async function renderTaxPdf(
  profile: TaxProfile,
  client: ClientDetails,
  locale: Locale,
  exchangeRate = rate,
  lines: Lines = oneLine,
) {
  const snapshot = buildSnapshot({
    profile,
    client,
    lines,
    supplyDate: new Date(invoice.periodStart),
    periodStart: new Date(invoice.periodStart),
    periodEnd: new Date(invoice.periodEnd),
    now: new Date(invoice.created),
    exchangeRate,
  });
  const pdf = await renderInvoicePdf({
    locale,
    invoice,
    planName: 'ignored',
    customer: { name: 'ignored', company: null, email: 'ignored@example.com' },
    firm: { name: 'Bawaba Advisory', email: 'hello@bawaba-advisory.com', offices: [] },
    tax: taxInvoiceView(snapshot, invoice, locale),
  });
  const file = path.join(dir, `${locale}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  if (process.env.KEEP_TAX_PDF)
    writeFileSync(`/tmp/tax-${locale}-${client.country}-${profile.country}-${profile.registered}.pdf`, pdf);
  return file;
}

async function pdfText(profile: TaxProfile, client: ClientDetails, locale: Locale, lines: Lines = oneLine) {
  const file = await renderTaxPdf(profile, client, locale, rate, lines);
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })
    .replace(/[\u200e\u200f\u202a-\u202e]/g, '')
    .replace(/\s+/g, ' ');
}

describe('tax invoice PDF', () => {
  it('fits one A4 page in both languages, with everything an invoice can carry (demo banner, zero-rating statement, fixture rate)', async () => {
    const fixture = { ...rate, fixture: true };
    for (const locale of ['en', 'ar'] as const) {
      // The country's own line too (details given since the form asks the country apart).
      const client = { ...clients.overseas, countryName: { en: 'Singapore', ar: 'سنغافورة' } };
      const file = await renderTaxPdf(DEMO_TAX_PROFILE, client, locale, fixture);
      const pages = /^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1];
      expect(pages, locale).toBe('1');
    }
  });

  it('a UAE client: Tax Invoice, both TRNs, 5 % VAT per line and in total, AED figures and the rate', async () => {
    const en = await pdfText(uae, clients.uae, 'en');
    for (const field of [
      'Tax Invoice',
      'BWB-2026-0042',
      'Bawaba Advisory FZ-LLC',
      'Business Bay, Dubai, UAE',
      'TRN: 100123456789012',
      'Haddad Trading LLC',
      'Dubai, United Arab Emirates',
      'TRN 100234567800003',
      'Date of issue',
      '2 November 2026',
      'Date of supply',
      'Period of supply',
      '2 December 2026',
      'Business: monthly advisory subscription',
      'Unit price',
      'Net amount',
      '5%',
      'SGD 1,500.00',
      'SGD 75.00',
      'Total payable',
      'SGD 1,575.00',
      'AED 4,261.80',
      'AED 213.09',
      'AED 4,474.89',
      '1 SGD = 2.8412 AED',
      'source: CBUAE',
    ])
      expect(en, field).toContain(field);
    expect(en).toMatch(/Amounts in UAE dirhams \(AED\)/i);
    expect(en).not.toMatch(/Zero-rated|demo/i);

    const ar = await pdfText(uae, clients.uae, 'ar');
    for (const field of [
      'فاتورة ضريبية',
      'BWB-2026-0042',
      'بوابة للاستشارات ش.م.ح-ذ.م.م',
      'رقم التسجيل الضريبي',
      '100123456789012',
      'Haddad Trading LLC',
      '100234567800003',
      'تاريخ الإصدار',
      'تاريخ التوريد',
      'فترة التوريد',
      'المبلغ الصافي',
      'ضريبة القيمة المضافة',
      'الإجمالي المستحق',
      'المبالغ بالدرهم الإماراتي',
      '4,474.89',
      '2.8412',
    ])
      expect(ar, field).toContain(field);
  });

  it('a UAE supplier billing in SGD: the net and tax of each line in AED, rounded to the fils line by line, with the rate', async () => {
    // 1.17 SGD and 2.34 SGD at 2.8412: nets 3.324204 → 3.32 and 6.648408 → 6.65 AED; taxes 0.06 SGD
    // → 0.170472 → 0.17 and 0.12 → 0.340944 → 0.34 AED. The totals are the sums of the rounded lines
    // (9.97 and 0.51), not the converted SGD totals (3.51 × 2.8412 = 9.97, 0.18 × 2.8412 = 0.511416 → 0.51).
    const lines: Lines = [
      { description: { en: 'Starter', ar: 'البداية' }, plan: 'starter', quantity: 1, price: 117 },
      { description: { en: 'Workshop', ar: 'ورشة' }, plan: null, quantity: 2, price: 117 },
    ];
    const en = await pdfText(uae, clients.uae, 'en', lines);
    // In the lines' table (before the totals), each line's AED net and tax under its SGD figures.
    const table = en.slice(0, en.indexOf('Total excluding VAT SGD'));
    for (const field of [
      'SGD 1.17',
      'SGD 0.06',
      'AED 3.32',
      'AED 0.17',
      'SGD 2.34',
      'SGD 0.12',
      'AED 6.65',
      'AED 0.34',
    ])
      expect(table, field).toContain(field);
    for (const field of [
      'Total excluding VAT AED 9.97',
      'Total VAT AED 0.51',
      'Total payable AED 10.48',
      '1 SGD = 2.8412 AED, rate of 2 November 2026, source: CBUAE',
      'each line and the totals also in UAE dirhams (AED)',
    ])
      expect(en, field).toContain(field);
    const ar = await pdfText(uae, clients.uae, 'ar', lines);
    for (const field of [
      '3.32',
      '0.17',
      '6.65',
      '0.34',
      '9.97',
      '0.51',
      '10.48',
      'وكل بند والإجماليات بالدرهم الإماراتي',
    ])
      expect(ar, field).toContain(field);
  });

  it('an overseas client of the UAE firm: zero-rated export of services, with the statement', async () => {
    const en = await pdfText(uae, clients.overseas, 'en');
    expect(en).toContain('Tax Invoice');
    expect(en).toContain('0%');
    expect(en).toContain('Zero-rated supply: export of services (Article 31 of Federal Decree-Law No. 8 of 2017');
    expect(en).toContain('GST Reg. No. 201912345K');
    expect(en).toContain('AED 4,261.80');
    const ar = await pdfText(uae, clients.overseas, 'ar');
    expect(ar).toContain('توريد خاضع لنسبة الصفر');
    expect(ar).toContain('تصدير خدمات');
  });

  it('a Singapore client of the Singapore firm: GST 9 %, GST numbers, no AED', async () => {
    const en = await pdfText(sg, clients.sg, 'en');
    for (const field of [
      'Tax Invoice',
      'GST Reg. No.: 201912345K',
      'GST Reg. No. M212345678',
      '9%',
      'SGD 135.00',
      'SGD 1,635.00',
    ])
      expect(en, field).toContain(field);
    expect(en).not.toContain('AED');
    const ar = await pdfText(sg, clients.sg, 'ar');
    for (const field of ['فاتورة ضريبية', 'ضريبة السلع والخدمات', '1,635.00', 'M212345678'])
      expect(ar, field).toContain(field);
  });

  it('an unregistered supplier: "Invoice", never "Tax Invoice", and no tax', async () => {
    const profile = { ...uae, registered: false, registrationNumber: null };
    const en = await pdfText(profile, clients.uae, 'en');
    expect(en).not.toContain('Tax Invoice');
    expect(en).toContain('not registered for VAT or GST');
    expect(en).not.toContain('TRN: 100123456789012');
    const ar = await pdfText(profile, clients.uae, 'ar');
    expect(ar).not.toContain('فاتورة ضريبية');
    expect(ar).toContain('فاتورة');
  });
});
