import type { TaxProfile } from './profile';

/**
 * The tax treatment of one invoice: the rule table of docs/accounting.md, written once. Inputs
 * are the supplier's profile and the client's country (ISO 3166-1 alpha-2, or null when the
 * client has not told it yet); the answer names the rate, the document's title and the
 * statement a zero-rated invoice must carry.
 *
 * | supplier            | client                | treatment                                       |
 * | ------------------- | --------------------- | ----------------------------------------------- |
 * | not registered      | any                   | no tax, title "Invoice" (never "Tax Invoice")   |
 * | AE, registered      | AE                    | standard rate (5 %)                             |
 * | AE, registered      | outside the UAE       | zero-rated export of services (Decree-Law Art. 31) |
 * | SG, registered      | SG                    | standard rate (9 %)                             |
 * | SG, registered      | outside Singapore     | zero-rated international service (GST Act s21(3)) |
 * | registered          | unknown (null)        | the profile's `unknownClientCountry` (default: standard) |
 */
export type TaxTreatmentKind = 'standard' | 'zero-rated-export' | 'zero-rated-international' | 'not-registered';

export interface TaxTreatment {
  kind: TaxTreatmentKind;
  /** Percent applied to each line's net amount. */
  ratePercent: number;
  /** "Tax Invoice" only from a registered supplier (FTA and IRAS alike). */
  title: 'tax-invoice' | 'invoice';
  /** The statement printed under the lines (a key of the invoice labels), or null. */
  statement: 'zeroRatedExportAE' | 'zeroRatedInternationalSG' | null;
}

export function taxTreatment(profile: TaxProfile, clientCountry: string | null): TaxTreatment {
  if (!profile.registered) return { kind: 'not-registered', ratePercent: 0, title: 'invoice', statement: null };
  const domestic =
    clientCountry === null
      ? profile.unknownClientCountry === 'domestic'
      : clientCountry.toUpperCase() === profile.country;
  if (domestic)
    return { kind: 'standard', ratePercent: profile.standardRatePercent, title: 'tax-invoice', statement: null };
  return profile.country === 'AE'
    ? { kind: 'zero-rated-export', ratePercent: 0, title: 'tax-invoice', statement: 'zeroRatedExportAE' }
    : { kind: 'zero-rated-international', ratePercent: 0, title: 'tax-invoice', statement: 'zeroRatedInternationalSG' };
}
