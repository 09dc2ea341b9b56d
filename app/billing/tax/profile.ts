import { z } from 'zod';

/**
 * The issuing entity's tax profile: who the invoices are from, for the tax authorities. The
 * operator sets it in a JSON file named by TAX_PROFILE_FILE (read and checked once at start by
 * env.server.ts), never in the CMS: an editor must not be able to change the firm's registration
 * number on invoices. docs/accounting.md describes the fields; ADR 0028 the design.
 */

/** UAE VAT and Singapore GST standard rates (Federal Decree-Law 8 of 2017 Art. 3; GST Act s16, 9 % from 2024). */
export const STANDARD_RATE_PERCENT = { AE: 5, SG: 9 } as const;
export type SupplierCountry = keyof typeof STANDARD_RATE_PERCENT;

/** The emirates' codes of the UAE e-invoicing code list (country subdivision of an AE address). */
export const EMIRATES = ['AUH', 'DXB', 'SHJ', 'AJM', 'UAQ', 'RAK', 'FUJ'] as const;
export type Emirate = (typeof EMIRATES)[number];

/**
 * A UAE Tax Registration Number: 15 digits. The FTA publishes no check digit and no rule beyond the
 * length (most TRNs begin with 100, but that is the issuing series, not a rule): refusing a real
 * number a client holds would be worse than letting a mistyped one through, which the FTA's own
 * TRN check catches.
 */
export function isUaeTrn(value: string): boolean {
  return /^\d{15}$/.test(value);
}

/**
 * A Singapore GST registration number, spaces and hyphens removed: an entity's UEN (IRAS uses it
 * as the GST number: nnnnnnnnX for businesses, yyyynnnnnX for local companies, TyyPQnnnnX for
 * other entities) or, for those without one, the IRAS-issued M-number (M + 8 characters + a check
 * character, written like M2-1234567-8). Shapes only: IRAS publishes no check-digit rule.
 */
export function isSgGstNumber(value: string): boolean {
  return /^(\d{8}[A-Z]|\d{9}[A-Z]|[TSR]\d{2}[A-Z]{2}\d{4}[A-Z]|M[0-9A-Z]\d{7}[0-9A-Z])$/.test(value);
}

/** The registration number as it is stored and printed: upper case, without spaces and hyphens. */
export function normalizeRegistrationNumber(value: string): string {
  return value.replace(/[\s-]/g, '').toUpperCase();
}

const bilingual = (what: string) =>
  z.object(
    {
      en: z.string().trim().min(1, `${what} in English`).max(400),
      ar: z.string().trim().min(1, `${what} in Arabic`).max(400),
    },
    { error: `${what}: { "en": "…", "ar": "…" }` },
  );

export const taxProfileSchema = z
  .object({
    legalName: bilingual('the legal name'),
    /** The registered address, lines separated by "\n". */
    address: bilingual('the registered address'),
    country: z.enum(['AE', 'SG'], { error: 'AE (UAE VAT) or SG (Singapore GST)' }),
    registered: z.boolean({ error: 'true or false: is the entity registered for VAT/GST?' }),
    registrationNumber: z.string().transform(normalizeRegistrationNumber).optional(),
    /** Percent; defaults to the country's standard rate. */
    standardRatePercent: z.number().min(0).max(100).optional(),
    /** Whether the CMS's package prices include the tax (then the tax is worked out of them). */
    pricesIncludeTax: z.boolean({ error: 'true or false: do the listed prices include the tax?' }),
    /**
     * A judgement the rules leave to the firm: how to treat a client whose country is not known
     * yet (a client from before billing details were asked). `domestic` (default): charge the
     * standard rate, the safe side for the firm; `overseas`: zero-rate.
     */
    unknownClientCountry: z.enum(['domestic', 'overseas']).default('domestic'),
    /** A demo profile: every invoice says so. Set only by the built-in demo profile. */
    demo: z.boolean().default(false),
    /**
     * What a UAE supplier's PINT AE e-invoices need beyond the tax invoice (docs/accounting.md,
     * "E-invoices"); all optional. `participantId`: the firm's Peppol participant ID when it is
     * not 0235 + the first 10 digits of the TRN (the TIN); `city` and `emirate` (the MoF's
     * subdivision code) of the registered address; `legalRegistration`: the trade licence (TL),
     * Emirates ID (EID), passport (PAS) or cabinet decision (CD) number and its issuer.
     */
    eInvoicing: z
      .object({
        participantId: z
          .string()
          .regex(/^0235:\d{10}$/, '0235: and the 10-digit TIN')
          .optional(),
        city: z.string().trim().min(1).max(100).optional(),
        emirate: z.enum(EMIRATES, { error: `one of ${EMIRATES.join(', ')}` }).optional(),
        legalRegistration: z
          .object({
            id: z.string().trim().min(1).max(50),
            type: z.enum(['TL', 'EID', 'PAS', 'CD']),
            authority: z.string().trim().min(1).max(200).optional(),
          })
          .optional(),
      })
      .optional(),
  })
  .superRefine((p, ctx) => {
    // The checkout, the plan pages and the renewal reminder show the listed price and no tax line
    // yet: prices without tax would charge a client more than they were shown. Refused until they do.
    if (!p.pricesIncludeTax)
      ctx.addIssue({
        code: 'custom',
        path: ['pricesIncludeTax'],
        message: 'must be true for now: the checkout shows the listed price as the amount paid (docs/accounting.md)',
      });
    if (!p.registered) return;
    const n = p.registrationNumber;
    if (!n) ctx.addIssue({ code: 'custom', path: ['registrationNumber'], message: 'required when registered' });
    else if (p.country === 'AE' && !isUaeTrn(n))
      ctx.addIssue({
        code: 'custom',
        path: ['registrationNumber'],
        message: 'a UAE TRN is 15 digits',
      });
    else if (p.country === 'SG' && !isSgGstNumber(n))
      ctx.addIssue({
        code: 'custom',
        path: ['registrationNumber'],
        message: 'a Singapore GST registration number (a UEN such as 201912345K, or M2-1234567-8)',
      });
  })
  .transform((p) => ({
    ...p,
    registrationNumber: p.registered ? (p.registrationNumber ?? null) : null,
    standardRatePercent: p.standardRatePercent ?? STANDARD_RATE_PERCENT[p.country],
  }));

export type TaxProfile = z.output<typeof taxProfileSchema>;

/**
 * The profile of a site that takes no real payment (loopback, BILLING=demo) and names no file:
 * a UAE-registered firm, marked as a demo on every invoice. Its TRN is a placeholder of the
 * right shape, not a real registration.
 */
export const DEMO_TAX_PROFILE: TaxProfile = {
  legalName: { en: 'Bawaba Advisory FZ-LLC (demo)', ar: 'بوابة للاستشارات ش.م.ح-ذ.م.م (تجريبي)' },
  address: {
    en: 'Office 1204, Boulevard Plaza Tower 1\nDowntown Dubai, United Arab Emirates',
    ar: 'مكتب 1204، برج بوليفارد بلازا 1\nوسط مدينة دبي، الإمارات العربية المتحدة',
  },
  country: 'AE',
  registered: true,
  registrationNumber: '100000000000003',
  standardRatePercent: 5,
  // The demo's listed prices are what its test cards pay (the checkout shows no tax line yet).
  pricesIncludeTax: true,
  unknownClientCountry: 'domestic',
  demo: true,
  eInvoicing: { city: 'Dubai', emirate: 'DXB' },
};

/** Checks a profile read from the operator's file; the error lists every problem by field. */
export function parseTaxProfile(raw: unknown): { ok: true; profile: TaxProfile } | { ok: false; problems: string[] } {
  const result = taxProfileSchema.safeParse(raw);
  if (result.success) return { ok: true, profile: result.data };
  return { ok: false, problems: result.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`) };
}
