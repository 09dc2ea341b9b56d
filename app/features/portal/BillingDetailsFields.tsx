import { useId } from 'react';
import type { BillingDetailsField } from '~/billing/tax/details';
import { isolateCodes } from '~/lib/digits';
import { useT } from '~/lib/locale';
import { describedBy, FieldError } from './shared';
import { hint, input, label } from './ui';

/** The billing details form's fields in the order they are asked (app/billing/tax/details.ts checks them). */
export const BILLING_DETAILS_FIELDS: BillingDetailsField[] = [
  'legalName',
  'address',
  'city',
  'postalCode',
  'country',
  'registrationNumber',
];

interface Spec {
  autoComplete: string;
  optional?: boolean;
  /** Typed left to right in both languages (codes and numbers). */
  ltr?: boolean;
  multiline?: boolean;
}

/** No `maxLength`: it would cut a paste (app/features/portal/shared.tsx); the server refuses what is too long, with a message. */
const SPECS: Record<BillingDetailsField, Spec> = {
  legalName: { autoComplete: 'organization' },
  address: { autoComplete: 'street-address', multiline: true },
  city: { autoComplete: 'address-level2' },
  postalCode: { autoComplete: 'postal-code', optional: true, ltr: true },
  country: { autoComplete: 'country' },
  registrationNumber: { autoComplete: 'off', optional: true, ltr: true },
};

/**
 * The client's billing details as form fields (the portal's page and the embedded checkout):
 * legal name, address lines, city, postal code, country (a select of every ISO 3166 country,
 * named in the page's language by the server with Intl.DisplayNames) and tax registration number.
 * Every field has a label, a hint where the format matters, and its error tied to it.
 */
export function BillingDetailsFields({
  countries,
  values,
  errors,
  idOf,
}: {
  countries: { code: string; name: string }[];
  values: Partial<Record<BillingDetailsField, string>>;
  errors: Partial<Record<BillingDetailsField, string>>;
  /** The element id of a field (the error summary links to it). */
  idOf: (field: BillingDetailsField) => string;
}) {
  const { t } = useT('portal');
  const uid = useId();
  return (
    <>
      {BILLING_DETAILS_FIELDS.map((name) => {
        const spec = SPECS[name];
        const id = idOf(name);
        const errorKey = errors[name];
        const hintKey = `billingDetails.hints.${name}`;
        const hasHint = name !== 'legalName' && name !== 'city';
        const hintId = hasHint ? `${uid}-${name}-hint` : null;
        const common = {
          id,
          name,
          autoComplete: spec.autoComplete,
          'aria-invalid': errorKey ? true : undefined,
          'aria-describedby': describedBy(hintId, errorKey && `${id}-error`),
        } as const;
        return (
          <div key={name}>
            <label htmlFor={id} className={label}>
              {t(`billingDetails.fields.${name}`)}
              {spec.optional && <span className="ms-1 font-normal text-navy-700">({t('common.optional')})</span>}
            </label>
            {hintId && (
              <p id={hintId} className={`${hint} mt-0.5`}>
                {isolateCodes(t(hintKey))}
              </p>
            )}
            {name === 'country' ? (
              <select
                {...common}
                required
                defaultValue={values.country ?? ''}
                className={`${input} mt-1`}
                data-testid="billing-country"
              >
                <option value="">{t('billingDetails.chooseCountry')}</option>
                {countries.map((c) => (
                  <option key={c.code} value={c.code}>
                    {c.name}
                  </option>
                ))}
              </select>
            ) : spec.multiline ? (
              <textarea {...common} required rows={3} defaultValue={values[name] ?? ''} className={`${input} mt-1`} />
            ) : (
              <input
                {...common}
                type="text"
                required={!spec.optional}
                defaultValue={values[name] ?? ''}
                dir={spec.ltr ? 'ltr' : undefined}
                className={`${input} mt-1 ${spec.ltr ? 'rtl:text-right' : ''}`}
              />
            )}
            {errorKey && <FieldError id={`${id}-error`}>{isolateCodes(t(errorKey))}</FieldError>}
          </div>
        );
      })}
    </>
  );
}
