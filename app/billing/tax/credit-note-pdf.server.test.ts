import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Locale } from '~/i18n';
import { renderCreditNotePdf } from '../invoice-pdf.server';
import { buildCreditNote, checkReason, creditNoteTitle, CreditNoteError } from './credit-note';
import { creditNoteView } from './credit-note-view';
import { DEMO_TAX_PROFILE, type TaxProfile } from './profile';
import { buildSnapshot, type ClientDetails } from './snapshot';

/**
 * Tax credit notes: the snapshot and its rule for each tax treatment, and the PDF in both
 * languages read back with pdftotext (the particulars of Article 60(1) of the UAE VAT Executive
 * Regulation and regulation 12 of Singapore's GST (General) Regulations).
 */
const dir = mkdtempSync(path.join(tmpdir(), 'credit-note-pdf-'));
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
const client = (country: string, registrationNumber: string | null): ClientDetails => ({
  name: 'Haddad Trading LLC',
  company: null,
  email: 'layla@example.com',
  address: 'Office 2207, Cluster X, JLT\nDubai, United Arab Emirates',
  country,
  registrationNumber,
});
const rate = { rate: '2.8412', date: '2026-11-02', source: 'CBUAE', fixture: false };

function invoiceSnapshot(profile: TaxProfile, c: ClientDetails) {
  return buildSnapshot({
    profile,
    client: c,
    lines: [{ description: { en: 'Business', ar: 'الأعمال' }, plan: 'business', quantity: 1, price: 150000 }],
    supplyDate: new Date('2026-11-02T08:00:00Z'),
    periodStart: new Date('2026-11-02T08:00:00Z'),
    periodEnd: new Date('2026-12-02T08:00:00Z'),
    now: new Date('2026-11-02T08:00:00Z'),
    exchangeRate: rate,
  });
}

function note(profile: TaxProfile, c: ClientDetails) {
  return buildCreditNote({
    number: 'CN-2026-0003',
    now: new Date('2026-11-20T10:00:00Z'),
    reason: 'Subscription cancelled in its first week; refunded',
    invoice: { number: 'BWB-2026-0042', tax: invoiceSnapshot(profile, c) },
  });
}

async function pdfText(profile: TaxProfile, c: ClientDetails, locale: Locale) {
  const pdf = await renderCreditNotePdf({
    locale,
    firm: { name: 'Bawaba Advisory', email: 'hello@bawaba-advisory.com', offices: [] },
    note: creditNoteView(note(profile, c), locale),
  });
  const file = path.join(dir, `${locale}-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  if (process.env.KEEP_TAX_PDF) writeFileSync(`/tmp/credit-note-${locale}-${c.country}-${profile.country}.pdf`, pdf);
  const pages = /^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1];
  expect(pages, `${locale} fits one page`).toBe('1');
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })
    .replace(/[\u200e\u200f\u202a-\u202e]/g, '')
    .replace(/\s+/g, ' ');
}

describe('credit note snapshot: the rule for each treatment', () => {
  const cases = [
    [
      'UAE supplier, UAE client: standard 5 %',
      uae,
      client('AE', '100234567800003'),
      'standard',
      7500,
      'tax-credit-note',
    ],
    [
      'UAE supplier, overseas client: zero-rated export',
      uae,
      client('SG', null),
      'zero-rated-export',
      0,
      'tax-credit-note',
    ],
    ['SG supplier, SG client: GST 9 %', sg, client('SG', null), 'standard', 13500, 'tax-credit-note'],
    [
      'SG supplier, overseas client: zero-rated',
      sg,
      client('AE', null),
      'zero-rated-international',
      0,
      'tax-credit-note',
    ],
    [
      'unregistered supplier: no tax, "Credit Note"',
      { ...uae, registered: false, registrationNumber: null },
      client('AE', null),
      'not-registered',
      0,
      'credit-note',
    ],
  ] as const;
  it.each(cases)('%s', (_, profile, c, kind, tax, title) => {
    const invoice = invoiceSnapshot(profile, c);
    const cn = note(profile, c);
    expect(cn.invoice.tax).toEqual(invoice);
    expect(cn.invoice.tax.treatment.kind).toBe(kind);
    expect(cn.credited).toEqual({ net: 150000, tax, gross: 150000 + tax });
    expect(creditNoteTitle(cn)).toBe(title);
    // AED as the invoice had them: a registered UAE supplier only.
    expect(cn.aed).toEqual(invoice.status === 'issued' ? invoice.aed : null);
    expect(cn.aed !== null).toBe(profile.country === 'AE' && profile.registered);
  });

  it('refuses an invoice without a snapshot, a waiting one, and a bad reason', () => {
    const waiting = buildSnapshot({
      ...{ profile: uae, client: client('AE', null) },
      lines: [],
      supplyDate: new Date(),
      periodStart: new Date(),
      periodEnd: new Date(),
      now: new Date(),
      exchangeRate: null,
    });
    const make =
      (tax: Parameters<typeof buildCreditNote>[0]['invoice']['tax'], reason = 'Refunded') =>
      () =>
        buildCreditNote({ number: 'CN-2026-0001', now: new Date(), reason, invoice: { number: 'BWB-2026-0001', tax } });
    expect(make(null)).toThrow(CreditNoteError);
    expect(make(waiting)).toThrow(/waits for its exchange rate/);
    expect(make(invoiceSnapshot(uae, client('AE', null)), 'x')).toThrow(/reason/);
    expect(() => checkReason('a'.repeat(301))).toThrow(CreditNoteError);
    expect(checkReason('  Refunded  ')).toBe('Refunded');
  });
});

describe('tax credit note PDF', () => {
  it('a UAE client: "Tax Credit Note", both TRNs, the invoice it corrects, the reason, and the adjustment with its VAT in AED', async () => {
    const en = await pdfText(uae, client('AE', '100234567800003'), 'en');
    for (const field of [
      'Tax Credit Note',
      'CN-2026-0003',
      'Bawaba Advisory FZ-LLC',
      'TRN: 100123456789012',
      'Haddad Trading LLC',
      'TRN 100234567800003',
      'Date of issue',
      '20 November 2026',
      'Invoice corrected',
      'BWB-2026-0042',
      'Invoice date',
      '2 November 2026',
      'Subscription cancelled in its first week; refunded',
      'This credit note cancels invoice BWB-2026-0042 of 2 November 2026 in full.',
      'Value of the supply shown on the invoice (excluding VAT)',
      'Correct value of the supply',
      'Difference',
      'VAT on the difference',
      'Total credited',
      'SGD 1,500.00',
      'SGD 0.00',
      'SGD 75.00',
      'SGD 1,575.00',
      'AED 4,261.80',
      'AED 213.09',
      'AED 4,474.89',
      '1 SGD = 2.8412 AED',
    ])
      expect(en, field).toContain(field);

    const ar = await pdfText(uae, client('AE', '100234567800003'), 'ar');
    for (const field of [
      'إشعار دائن ضريبي',
      'CN-2026-0003',
      'بوابة للاستشارات ش.م.ح-ذ.م.م',
      'رقم التسجيل الضريبي',
      '100123456789012',
      '100234567800003',
      'رقم الإشعار الدائن',
      'تاريخ الإصدار',
      'الفاتورة المعدَّلة',
      'BWB-2026-0042',
      'تاريخ الفاتورة',
      'سبب إصدار الإشعار الدائن',
      'القيمة الصحيحة للتوريد',
      'الفرق',
      'ضريبة القيمة المضافة على الفرق',
      'إجمالي المبلغ الدائن',
      '4,474.89',
      '213.09',
      '2.8412',
    ])
      expect(ar, field).toContain(field);
  });

  it('an overseas client: zero-rated, the statement kept; a Singapore firm: GST, no AED', async () => {
    const export_ = await pdfText(uae, client('SG', null), 'en');
    expect(export_).toContain('Tax Credit Note');
    expect(export_).toContain('Zero-rated supply: export of services');
    expect(export_).toContain('AED 0.00');
    const gst = await pdfText(sg, client('SG', null), 'en');
    for (const field of [
      'Tax Credit Note',
      'GST Reg. No.: 201912345K',
      'GST on the difference',
      'SGD 135.00',
      'SGD 1,635.00',
    ])
      expect(gst, field).toContain(field);
    expect(gst).not.toContain('AED');
    const gstAr = await pdfText(sg, client('SG', null), 'ar');
    expect(gstAr).toContain('إشعار دائن ضريبي');
    expect(gstAr).toContain('ضريبة السلع والخدمات على الفرق');
  });

  it('an unregistered supplier: "Credit Note", never "Tax Credit Note"', async () => {
    const profile = { ...uae, registered: false, registrationNumber: null };
    const en = await pdfText(profile, client('AE', null), 'en');
    expect(en).toContain('Credit Note');
    expect(en).not.toContain('Tax Credit Note');
    const ar = await pdfText(profile, client('AE', null), 'ar');
    expect(ar).toContain('إشعار دائن');
    expect(ar).not.toContain('إشعار دائن ضريبي');
  });
});
