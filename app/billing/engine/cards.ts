import { digitsOf } from '~/lib/digits';
import { BillingError } from '../types';

/**
 * The local checkout's card rules, like Stripe's test mode: no card is ever charged here, so
 * only Stripe's published test numbers are accepted. The card number and the CVC are only
 * checked; nothing but the brand and the last four digits is kept (or logged).
 */

/** The checkout field an invalid input belongs to (the portal shows a message per field). */
export type CheckoutField = 'number' | 'expiry' | 'cvc' | 'email' | 'name';

/** Why a card was declined, as Stripe's decline codes name it. */
export type DeclineCode = 'generic_decline' | 'insufficient_funds' | 'live_card_in_test_mode';

/**
 * A refused checkout: `invalid_request` carries the `field` to fix; `card_declined` carries
 * Stripe's `declineCode` (its `field` is 'number').
 */
export class CheckoutError extends BillingError {
  readonly field: CheckoutField;
  readonly declineCode: DeclineCode | null;
  constructor(
    code: 'invalid_request' | 'card_declined',
    field: CheckoutField,
    message: string,
    declineCode: DeclineCode | null = null,
  ) {
    super(code, message);
    this.name = 'CheckoutError';
    this.field = field;
    this.declineCode = declineCode;
  }
}

export interface CardInput {
  cardNumber: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/** What the engine keeps of an accepted card. `renewals: 'fail'` is the card whose later charges fail. */
export interface AcceptedCard {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  renewals: 'succeed' | 'fail';
}

type TestCard = { brand: string; outcome: 'succeed' | 'fail_renewals' | DeclineCode };

const TEST_CARDS: Record<string, TestCard> = {
  '4242424242424242': { brand: 'Visa', outcome: 'succeed' },
  '5555555555554444': { brand: 'Mastercard', outcome: 'succeed' },
  '4000000000000341': { brand: 'Visa', outcome: 'fail_renewals' },
  '4000000000000002': { brand: 'Visa', outcome: 'generic_decline' },
  '4000000000009995': { brand: 'Visa', outcome: 'insufficient_funds' },
};

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Digits only, read as typed or pasted (app/lib/digits.ts); null when anything else is left. */
export function normalizeCardNumber(value: string): string | null {
  const digits = digitsOf(value);
  return /^\d{12,19}$/.test(digits) ? digits : null;
}

/**
 * Checks a card against the test-mode rules at the billing clock's `now`. Throws a
 * CheckoutError: invalid_request (field number, expiry or cvc) for a malformed number, a past
 * expiry or a bad CVC; card_declined for the declining test numbers and for any other number.
 */
export function checkCard(input: CardInput, now: Date): AcceptedCard {
  const digits = normalizeCardNumber(String(input.cardNumber ?? ''));
  if (!digits || !luhnValid(digits))
    throw new CheckoutError('invalid_request', 'number', 'The card number is not valid.');
  const month = Number(input.expMonth);
  let year = Number(input.expYear);
  if (!Number.isInteger(month) || month < 1 || month > 12 || !Number.isInteger(year))
    throw new CheckoutError('invalid_request', 'expiry', 'The expiry date is not valid.');
  if (year < 100) year += 2000;
  // A card is good through the last moment of its expiry month.
  if (now.getTime() >= Date.UTC(year, month, 1))
    throw new CheckoutError('invalid_request', 'expiry', 'The card has expired.');
  if (!/^\d{3,4}$/.test(String(input.cvc ?? '')))
    throw new CheckoutError('invalid_request', 'cvc', 'The security code is not valid.');
  const card = TEST_CARDS[digits];
  if (!card)
    throw new CheckoutError(
      'card_declined',
      'number',
      'The card was declined (only test cards are accepted here).',
      'live_card_in_test_mode',
    );
  if (card.outcome === 'generic_decline')
    throw new CheckoutError('card_declined', 'number', 'The card was declined.', 'generic_decline');
  if (card.outcome === 'insufficient_funds')
    throw new CheckoutError('card_declined', 'number', 'The card has insufficient funds.', 'insufficient_funds');
  return {
    brand: card.brand,
    last4: digits.slice(-4),
    expMonth: month,
    expYear: year,
    renewals: card.outcome === 'fail_renewals' ? 'fail' : 'succeed',
  };
}
