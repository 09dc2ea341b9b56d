import { z } from 'zod';
import type { Locale } from '~/i18n';
import { isSgGstNumber, isUaeTrn, normalizeRegistrationNumber } from './profile';

/**
 * A client's billing details (issue 41 item 2): what their invoices are addressed to. Stored on
 * the engine's customer (billing_customers.billing_details), on the Stripe customer (address, tax
 * IDs) in the hosted world, and copied into each invoice's snapshot when it is issued. The tax
 * number is checked by country where its shape is known.
 *
 * What the client typed is kept as typed (trimmed): the registration number is checked in its
 * normalized form (no spaces or hyphens, upper case) but stored as entered.
 */

/**
 * ISO 3166-1 alpha-2: the officially assigned codes (249). Only the codes: their names in each
 * language come from Intl.DisplayNames (CLDR), never from a table here.
 */
export const ISO_3166_ALPHA2 = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY ' +
  'BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK ' +
  'FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR ' +
  'IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ' +
  'ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM ' +
  'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF ' +
  'TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');
const ISO_SET = new Set(ISO_3166_ALPHA2);

/**
 * Countries whose addresses have no postal code (the UAE among them): there the field is
 * optional; elsewhere a billing address needs one. A fact about each country's post, not a name.
 */
export const NO_POSTAL_CODE = new Set(
  (
    'AE AG AO AQ AW BF BI BJ BO BQ BS BW BZ CD CF CG CI CK CM CW DJ DM ER FJ GA GD GH GM GQ GY HK HM KI KM KN KP ' +
    'LY ML MO MR MW NR NU QA RW SB SC SL SR ST SX SY TD TF TG TK TL TO TT TV UG VU YE ZW'
  ).split(' '),
);

/** The countries in a language, sorted by their names there: for the country select. */
export function countryOptions(locale: Locale): { code: string; name: string }[] {
  const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
  const collator = new Intl.Collator(locale);
  return ISO_3166_ALPHA2.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
    collator.compare(a.name, b.name),
  );
}

/** A country's name in both languages (frozen into a snapshot, so an issued invoice never changes). */
export function countryName(code: string): { en: string; ar: string } {
  const of = (locale: Locale) => new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' }).of(code) ?? code;
  return { en: of('en'), ar: of('ar') };
}

const text = (max: number) => z.string().trim().max(max);

/**
 * The form's and the stored shape. Error messages are keys under portal.json's
 * `billingDetails.errors`, so each language says them its own way.
 */
export const billingDetailsSchema = z
  .object({
    legalName: text(200).min(1, 'legalName'),
    /** Street lines, separated by "\n". */
    address: text(600).min(1, 'address'),
    city: text(100).min(1, 'city'),
    postalCode: text(20)
      .regex(/^[\p{L}\p{N} -]*$/u, 'postalCode')
      .default(''),
    /** ISO 3166-1 alpha-2. */
    country: z
      .string()
      .trim()
      .toUpperCase()
      .refine((c) => ISO_SET.has(c), 'country'),
    /** As typed (trimmed); empty: none. */
    registrationNumber: text(40)
      .transform((v) => (v === '' ? null : v))
      .nullable()
      .default(null),
  })
  .superRefine((d, ctx) => {
    if (!d.postalCode && !NO_POSTAL_CODE.has(d.country))
      ctx.addIssue({ code: 'custom', path: ['postalCode'], message: 'postalCodeRequired' });
    else if (d.country === 'SG' && d.postalCode && !/^\d{6}$/.test(d.postalCode))
      ctx.addIssue({ code: 'custom', path: ['postalCode'], message: 'postalCodeSG' });
    const problem = d.registrationNumber ? registrationProblem(d.country, d.registrationNumber) : null;
    if (problem) ctx.addIssue({ code: 'custom', path: ['registrationNumber'], message: problem });
  });

/** Why a tax number does not fit its country (a key of the errors), or null when it does. */
export function registrationProblem(country: string, typed: string): 'trn' | 'gst' | 'format' | null {
  const n = normalizeRegistrationNumber(typed);
  if (country === 'AE') return isUaeTrn(n) ? null : 'trn';
  if (country === 'SG') return isSgGstNumber(n) ? null : 'gst';
  return /^[A-Z0-9./]{2,40}$/.test(n) ? null : 'format';
}

export type BillingDetailsField = 'legalName' | 'address' | 'city' | 'postalCode' | 'country' | 'registrationNumber';

/**
 * Stored details. Details recorded before the city and postal code were asked (the demo's, the
 * first tax invoices') have only address lines.
 */
export type BillingDetails = Omit<z.output<typeof billingDetailsSchema>, 'city' | 'postalCode'> & {
  city?: string;
  postalCode?: string;
};

const ERROR_KEYS = new Set([
  'legalName',
  'address',
  'city',
  'postalCode',
  'postalCodeRequired',
  'postalCodeSG',
  'country',
  'trn',
  'gst',
  'format',
]);

/** Checks a posted form: the details, or each field's error key. */
export function parseBillingDetails(
  form: Partial<Record<BillingDetailsField, unknown>>,
): { ok: true; details: BillingDetails } | { ok: false; errors: Partial<Record<BillingDetailsField, string>> } {
  const result = billingDetailsSchema.safeParse(form);
  if (result.success) return { ok: true, details: result.data };
  const errors: Partial<Record<BillingDetailsField, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as BillingDetailsField;
    // zod's own messages (a field missing from the post, too long) say what the field's own key says.
    const key = ERROR_KEYS.has(issue.message) ? issue.message : field === 'registrationNumber' ? 'format' : field;
    errors[field] ??= `billingDetails.errors.${key}`;
  }
  return { ok: false, errors };
}

/** The registration number as tax authorities and Stripe read it (upper case, no spaces or hyphens). */
export function registrationValue(details: Pick<BillingDetails, 'registrationNumber'>): string | null {
  return details.registrationNumber ? normalizeRegistrationNumber(details.registrationNumber) : null;
}

/** The address as an invoice prints it: the street lines, then the city and postal code. */
export function addressLines(details: BillingDetails): string {
  const place = [details.city, details.postalCode].filter(Boolean).join(' ');
  return [details.address, place].filter(Boolean).join('\n');
}
