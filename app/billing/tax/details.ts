import { z } from 'zod';
import { isSgGstNumber, isUaeTrn, normalizeRegistrationNumber } from './profile';

/**
 * A client's billing details (issue 41 item 2): what their invoices are addressed to. Stored on
 * the engine's customer (billing_customers.billing_details) and copied into each invoice's
 * snapshot when it is issued. The tax number is checked by country where its shape is known.
 */
export const billingDetailsSchema = z
  .object({
    legalName: z.string().trim().min(1).max(200),
    /** Lines separated by "\n". */
    address: z.string().trim().min(1).max(600),
    /** ISO 3166-1 alpha-2. */
    country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/),
    registrationNumber: z
      .string()
      .trim()
      .max(40)
      .transform((v) => (v === '' ? null : normalizeRegistrationNumber(v)))
      .nullable()
      .default(null),
  })
  .superRefine((d, ctx) => {
    const n = d.registrationNumber;
    if (!n) return;
    if (d.country === 'AE' && !isUaeTrn(n))
      ctx.addIssue({ code: 'custom', path: ['registrationNumber'], message: 'trn' });
    else if (d.country === 'SG' && !isSgGstNumber(n))
      ctx.addIssue({ code: 'custom', path: ['registrationNumber'], message: 'gst' });
    else if (!/^[A-Z0-9]{2,40}$/.test(n))
      ctx.addIssue({ code: 'custom', path: ['registrationNumber'], message: 'format' });
  });

export type BillingDetails = z.output<typeof billingDetailsSchema>;
