import { describe, expect, it } from 'vitest';
import { addressLines, countryName, countryOptions, ISO_3166_ALPHA2, parseBillingDetails } from './details';

const valid = {
  legalName: 'Haddad Trading LLC',
  address: 'Office 2207, Cluster X\nJumeirah Lake Towers',
  city: 'Dubai',
  postalCode: '',
  country: 'AE',
  registrationNumber: '100234567800003',
};

describe('client billing details', () => {
  it('accepts a UAE client without a postal code (the UAE has none) and keeps what was typed', () => {
    const r = parseBillingDetails({
      ...valid,
      legalName: '  Haddad Trading LLC ',
      registrationNumber: '100-2345-6780-0003',
    });
    expect(r).toEqual({
      ok: true,
      details: { ...valid, registrationNumber: '100-2345-6780-0003' },
    });
  });

  it('asks for a postal code where the country has one, and a Singapore one has 6 digits', () => {
    const sg = { ...valid, country: 'SG', city: 'Singapore', registrationNumber: '' };
    expect(parseBillingDetails(sg)).toEqual({
      ok: false,
      errors: { postalCode: 'billingDetails.errors.postalCodeRequired' },
    });
    expect(parseBillingDetails({ ...sg, postalCode: '1234' })).toEqual({
      ok: false,
      errors: { postalCode: 'billingDetails.errors.postalCodeSG' },
    });
    expect(parseBillingDetails({ ...sg, postalCode: '018960' }).ok).toBe(true);
    expect(parseBillingDetails({ ...valid, country: 'GB', postalCode: 'SW1A 1AA', registrationNumber: '' }).ok).toBe(
      true,
    );
  });

  it('checks the tax number by country: UAE TRN, Singapore GST number, others bounded free text', () => {
    const errorOf = (country: string, registrationNumber: string, postalCode = '018960') => {
      const r = parseBillingDetails({ ...valid, country, postalCode, registrationNumber });
      return r.ok ? null : (r.errors.registrationNumber ?? null);
    };
    expect(errorOf('AE', '100234567800003', '')).toBeNull();
    expect(errorOf('AE', '200234567800003', '')).toBeNull(); // 100 is the usual series, not a published rule
    expect(errorOf('AE', '10023456780000A', '')).toBe('billingDetails.errors.trn');
    expect(errorOf('AE', '10023456780000', '')).toBe('billingDetails.errors.trn');
    for (const n of ['M2-1234567-8', 'M91234567X', '201912345K', '53012345D', 'T09LL0001B'])
      expect(errorOf('SG', n), n).toBeNull();
    for (const n of ['M2-123456-8', '2019123456', '100234567800003'])
      expect(errorOf('SG', n), n).toBe('billingDetails.errors.gst');
    expect(errorOf('GB', 'GB 123 4567 89')).toBeNull();
    expect(errorOf('GB', 'x'.repeat(41))).toBe('billingDetails.errors.format');
    expect(errorOf('GB', 'not <valid>')).toBe('billingDetails.errors.format');
  });

  it('names each missing or unknown field by its own localized error key', () => {
    expect(parseBillingDetails({ country: 'XX' })).toEqual({
      ok: false,
      errors: {
        legalName: 'billingDetails.errors.legalName',
        address: 'billingDetails.errors.address',
        city: 'billingDetails.errors.city',
        country: 'billingDetails.errors.country',
      },
    });
    expect(parseBillingDetails({ ...valid, legalName: '   ' })).toMatchObject({
      errors: { legalName: 'billingDetails.errors.legalName' },
    });
  });

  it('lists the 249 ISO 3166 countries with their names from Intl, in English and Arabic', () => {
    expect(ISO_3166_ALPHA2).toHaveLength(249);
    const en = countryOptions('en');
    const ar = countryOptions('ar');
    expect(en).toHaveLength(249);
    expect(en.find((c) => c.code === 'AE')?.name).toBe('United Arab Emirates');
    expect(ar.find((c) => c.code === 'AE')?.name).toBe('الإمارات العربية المتحدة');
    expect(ar.find((c) => c.code === 'SG')?.name).toBe('سنغافورة');
    // Sorted by name in each language.
    expect(en[0]?.code).toBe('AF');
    expect(countryName('SG')).toEqual({ en: 'Singapore', ar: 'سنغافورة' });
  });

  it('prints the address lines, then the city and postal code', () => {
    expect(addressLines({ ...valid, country: 'SG', city: 'Singapore', postalCode: '018960' })).toBe(
      'Office 2207, Cluster X\nJumeirah Lake Towers\nSingapore 018960',
    );
    // Details stored before the city was asked: the lines alone.
    expect(addressLines({ legalName: 'A', address: 'Line 1\nDubai', country: 'AE', registrationNumber: null })).toBe(
      'Line 1\nDubai',
    );
  });
});
