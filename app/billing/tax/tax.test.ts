import { describe, expect, it } from 'vitest';
import { billingDetailsSchema } from './details';
import { DEMO_TAX_PROFILE, isSgGstNumber, isUaeTrn, parseTaxProfile, type TaxProfile } from './profile';
import { taxTreatment } from './rules';
import { aedFigures, buildSnapshot, completeSnapshot, splitLine, toFils, type SnapshotInput } from './snapshot';

const uae: TaxProfile = { ...DEMO_TAX_PROFILE, demo: false, pricesIncludeTax: false };
const sg: TaxProfile = {
  ...uae,
  country: 'SG',
  registrationNumber: '201912345K',
  standardRatePercent: 9,
};
const unregistered: TaxProfile = { ...uae, registered: false, registrationNumber: null };

describe('the tax rule table', () => {
  it.each([
    ['UAE supplier, UAE client: standard 5 %', uae, 'AE', 'standard', 5, 'tax-invoice', null],
    [
      'UAE supplier, client outside the UAE: zero-rated export',
      uae,
      'SG',
      'zero-rated-export',
      0,
      'tax-invoice',
      'zeroRatedExportAE',
    ],
    [
      'UAE supplier, client in another GCC state: zero-rated export',
      uae,
      'SA',
      'zero-rated-export',
      0,
      'tax-invoice',
      'zeroRatedExportAE',
    ],
    ['SG supplier, SG client: GST 9 %', sg, 'SG', 'standard', 9, 'tax-invoice', null],
    [
      'SG supplier, overseas client: zero-rated',
      sg,
      'AE',
      'zero-rated-international',
      0,
      'tax-invoice',
      'zeroRatedInternationalSG',
    ],
    ['unregistered supplier: no tax, "Invoice"', unregistered, 'AE', 'not-registered', 0, 'invoice', null],
    [
      'unregistered supplier, overseas client: no tax, "Invoice"',
      unregistered,
      'SG',
      'not-registered',
      0,
      'invoice',
      null,
    ],
    ['unknown client country, default setting: domestic', uae, null, 'standard', 5, 'tax-invoice', null],
  ] as const)('%s', (_, profile, country, kind, rate, title, statement) => {
    expect(taxTreatment(profile, country)).toEqual({ kind, ratePercent: rate, title, statement });
  });

  it('an unknown client country follows the documented setting', () => {
    expect(taxTreatment({ ...sg, unknownClientCountry: 'overseas' }, null).kind).toBe('zero-rated-international');
  });
});

describe('the issuing entity profile', () => {
  const valid = {
    legalName: { en: 'Bawaba Advisory FZ-LLC', ar: 'بوابة للاستشارات' },
    address: { en: 'Dubai', ar: 'دبي' },
    country: 'AE',
    registered: true,
    registrationNumber: '100-1234-5678-9012',
    pricesIncludeTax: true,
  };
  it('accepts a complete profile, normalizing the TRN and defaulting the rate by country', () => {
    const r = parseTaxProfile(valid);
    expect(r.ok && r.profile).toMatchObject({
      registrationNumber: '100123456789012',
      standardRatePercent: 5,
      demo: false,
    });
    const s = parseTaxProfile({ ...valid, country: 'SG', registrationNumber: 'M2-1234567-8' });
    expect(s.ok && s.profile.standardRatePercent).toBe(9);
  });
  it('lists every problem of an incomplete profile by field', () => {
    const r = parseTaxProfile({ ...valid, legalName: { en: 'X' }, registrationNumber: '12345' });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems.join('\n')).toMatch(/legalName\.ar/);
    expect(parseTaxProfile({ ...valid, registrationNumber: '12345' })).toEqual({
      ok: false,
      problems: ['registrationNumber: a UAE TRN is 15 digits'],
    });
    expect(parseTaxProfile({ ...valid, registrationNumber: undefined })).toMatchObject({ ok: false });
  });
  it('refuses prices without tax while the checkout shows the listed price as the amount paid', () => {
    expect(parseTaxProfile({ ...valid, pricesIncludeTax: false })).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^pricesIncludeTax: must be true/)],
    });
  });
  it('checks the registration number shapes', () => {
    expect(isUaeTrn('100123456789012')).toBe(true);
    expect(isUaeTrn('10012345678901')).toBe(false);
    expect(isUaeTrn('200123456789012')).toBe(true); // 100 is the usual series, not a rule the FTA publishes
    for (const n of ['53012345D', '201912345K', 'T09LL0001B', 'M21234567X', 'M91234567A'])
      expect(isSgGstNumber(n), n).toBe(true);
    for (const n of ['12345', '2019123456K', 'X21234567X']) expect(isSgGstNumber(n), n).toBe(false);
  });
  it('checks a client tax number by country, and keeps it as typed', () => {
    const base = {
      legalName: 'A',
      address: 'B',
      city: 'Dubai',
      country: 'ae',
      registrationNumber: ' 1001 2345 6789 012 ',
    };
    expect(billingDetailsSchema.parse(base)).toMatchObject({ country: 'AE', registrationNumber: '1001 2345 6789 012' });
    expect(billingDetailsSchema.safeParse({ ...base, registrationNumber: '123' }).success).toBe(false);
    expect(billingDetailsSchema.safeParse({ ...base, country: 'SG', postalCode: '018960' }).success).toBe(false);
    expect(billingDetailsSchema.parse({ ...base, registrationNumber: '' }).registrationNumber).toBeNull();
  });
});

describe('amounts', () => {
  it('adds the tax to exclusive prices and works it out of inclusive ones, to the cent', () => {
    expect(splitLine(150000, 5, false)).toEqual({ net: 150000, tax: 7500 });
    expect(splitLine(150000, 5, true)).toEqual({ net: 142857, tax: 7143 });
    expect(splitLine(9999, 9, true)).toEqual({ net: 9173, tax: 826 });
    expect(splitLine(150000, 0, true)).toEqual({ net: 150000, tax: 0 });
  });
  it('converts to AED per line, each rounded to the nearest fils, totals the rounded lines', () => {
    expect(toFils(100, '2.857')).toBe(286); // 285.7 fils
    expect(toFils(1, '2.845')).toBe(3); // 2.845 → half up
    const aed = aedFigures(
      [
        { net: 333, tax: 17 },
        { net: 333, tax: 17 },
      ],
      { rate: '2.8412', date: '2026-11-02', source: 'CBUAE', fixture: false },
    );
    // 333 × 2.8412 = 946.1196 → 946; 17 × 2.8412 = 48.3004 → 48
    expect(aed.lines).toEqual([
      { net: 946, tax: 48 },
      { net: 946, tax: 48 },
    ]);
    expect(aed.totals).toEqual({ net: 1892, tax: 96, gross: 1988 });
  });
});

describe('the snapshot', () => {
  const input = (profile: TaxProfile, rate: SnapshotInput['exchangeRate']): SnapshotInput => ({
    profile,
    client: {
      name: 'A',
      company: null,
      email: 'a@example.com',
      address: 'Dubai',
      country: 'AE',
      registrationNumber: null,
    },
    lines: [{ description: { en: 'Business', ar: 'الأعمال' }, plan: 'business', quantity: 1, price: 150000 }],
    supplyDate: new Date('2026-11-02T08:00:00Z'),
    periodStart: new Date('2026-11-02T08:00:00Z'),
    periodEnd: new Date('2026-12-02T08:00:00Z'),
    now: new Date('2026-11-02T08:00:00Z'),
    exchangeRate: rate,
  });
  const rate = { rate: '2.8412', date: '2026-11-02', source: 'CBUAE', fixture: false };

  it('a UAE supplier without a rate waits; completed, it has the AED figures and its issue date', () => {
    const waiting = buildSnapshot(input(uae, null));
    expect(waiting).toMatchObject({
      status: 'waiting',
      issuedAt: null,
      aed: null,
      totals: { net: 150000, tax: 7500, gross: 157500 },
    });
    const done = completeSnapshot(waiting, rate, new Date('2026-11-03T00:00:00Z'));
    expect(done).toMatchObject({
      status: 'issued',
      issuedAt: '2026-11-03T00:00:00.000Z',
      aed: { exchangeRate: rate, totals: { net: 426180, tax: 21309, gross: 447489 } },
    });
    expect(done).not.toHaveProperty('waitingFor');
  });
  it('a Singapore supplier needs no AED rate', () => {
    const s = buildSnapshot({ ...input(sg, null), client: { ...input(sg, null).client, country: 'SG' } });
    expect(s).toMatchObject({ status: 'issued', aed: null, totals: { net: 150000, tax: 13500, gross: 163500 } });
  });
});
