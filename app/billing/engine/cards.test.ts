import { describe, expect, it } from 'vitest';
import { BillingError } from '../types';
import { checkCard, CheckoutError, luhnValid, normalizeCardNumber } from './cards';

const now = new Date('2026-06-15T12:00:00.000Z');
const card = (cardNumber: string, over: Partial<{ expMonth: number; expYear: number; cvc: string }> = {}) => ({
  cardNumber,
  expMonth: 12,
  expYear: 2030,
  cvc: '123',
  ...over,
});

function refusal(fn: () => unknown): CheckoutError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CheckoutError);
    expect(error).toBeInstanceOf(BillingError);
    return error as CheckoutError;
  }
  throw new Error('expected a refusal');
}

describe('test cards', () => {
  it('implements the Luhn check', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
  });

  it('accepts spaces and dashes, nothing else', () => {
    expect(normalizeCardNumber('4242 4242-4242 4242')).toBe('4242424242424242');
    expect(normalizeCardNumber('4242 4242 4242 424a')).toBeNull();
    expect(normalizeCardNumber('4242')).toBeNull();
  });

  it('accepts the succeeding test cards and keeps only brand and last four', () => {
    expect(checkCard(card('4242 4242 4242 4242'), now)).toEqual({
      brand: 'Visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2030,
      renewals: 'succeed',
    });
    expect(checkCard(card('5555-5555-5555-4444', { expYear: 30 }), now)).toEqual({
      brand: 'Mastercard',
      last4: '4444',
      expMonth: 12,
      expYear: 2030,
      renewals: 'succeed',
    });
    expect(checkCard(card('4000000000000341'), now).renewals).toBe('fail');
  });

  it('declines the declining test cards and every other number', () => {
    expect(refusal(() => checkCard(card('4000 0000 0000 0002'), now))).toMatchObject({
      code: 'card_declined',
      declineCode: 'generic_decline',
      field: 'number',
    });
    expect(refusal(() => checkCard(card('4000 0000 0000 9995'), now))).toMatchObject({
      code: 'card_declined',
      declineCode: 'insufficient_funds',
    });
    expect(refusal(() => checkCard(card('4111 1111 1111 1111'), now))).toMatchObject({
      code: 'card_declined',
      declineCode: 'live_card_in_test_mode',
    });
  });

  it('refuses a bad number, a past expiry and a bad CVC with the field to fix', () => {
    expect(refusal(() => checkCard(card('4242 4242 4242 4241'), now))).toMatchObject({
      code: 'invalid_request',
      field: 'number',
    });
    expect(refusal(() => checkCard(card('4242 4242 4242 4242 x'), now))).toMatchObject({
      code: 'invalid_request',
      field: 'number',
    });
    expect(refusal(() => checkCard(card('4242424242424242', { expMonth: 5, expYear: 2026 }), now))).toMatchObject({
      code: 'invalid_request',
      field: 'expiry',
    });
    expect(refusal(() => checkCard(card('4242424242424242', { expMonth: 13 }), now))).toMatchObject({
      code: 'invalid_request',
      field: 'expiry',
    });
    expect(refusal(() => checkCard(card('4242424242424242', { cvc: '12' }), now))).toMatchObject({
      code: 'invalid_request',
      field: 'cvc',
    });
    expect(refusal(() => checkCard(card('4242424242424242', { cvc: '12345' }), now))).toMatchObject({
      code: 'invalid_request',
      field: 'cvc',
    });
    // Good through the last moment of the expiry month, by the given clock.
    expect(checkCard(card('4242424242424242', { expMonth: 6, expYear: 2026 }), now).last4).toBe('4242');
    expect(
      refusal(() =>
        checkCard(card('4242424242424242', { expMonth: 6, expYear: 2026 }), new Date('2026-07-01T00:00:00.000Z')),
      ).field,
    ).toBe('expiry');
  });
});
