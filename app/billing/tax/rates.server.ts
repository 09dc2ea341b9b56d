import { and, desc, eq, gte, lte } from 'drizzle-orm';
import { billingExchangeRates } from '~/db/schema.server';
import type { Db } from '~/db/types.server';
import type { Queryable } from '../engine/transaction.server';
import { parseDecimal, type ExchangeRateUsed } from './snapshot';

/**
 * The operator's exchange-rate table (billing_exchange_rates): AED per unit of another currency,
 * one rate a day, recorded by `npm run rates -- add` with its source. An invoice uses the rate in
 * force on its date of supply: the latest recorded on or before that day (the Central Bank of the
 * UAE publishes on working days, so a Saturday's supply uses Friday's rate), at most
 * RATE_MAX_AGE_DAYS old. Without one the invoice waits: a rate is never guessed.
 */
export const RATE_MAX_AGE_DAYS = 7;

export interface RateInput {
  base: string;
  date: string;
  rate: string;
  source: string;
  fixture?: boolean;
}

export class RateError extends Error {}

/** Checks and records a rate. Refuses a second rate for the same currency and day (invoices may name the first). */
export async function addRate(db: Db, input: RateInput, now = new Date()): Promise<ExchangeRateUsed> {
  const base = input.base.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(base) || base === 'AED') throw new RateError('currency: a three-letter code other than AED');
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(input.date) ||
    new Date(`${input.date}T00:00:00Z`).toISOString().slice(0, 10) !== input.date
  )
    throw new RateError('date: YYYY-MM-DD');
  try {
    const [n] = parseDecimal(input.rate);
    if (n === 0n) throw new Error('zero');
  } catch {
    throw new RateError('rate: a positive decimal number, e.g. 2.8412 (AED per unit)');
  }
  const source = input.source.trim();
  if (!source || source.length > 200 || /[\r\n]/.test(source)) throw new RateError('source: one line, e.g. "CBUAE"');
  const inserted = await db
    .insert(billingExchangeRates)
    .values({
      base,
      quote: 'AED',
      effectiveOn: input.date,
      rate: input.rate.trim(),
      source,
      fixture: Boolean(input.fixture),
      recordedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (!inserted.length)
    throw new RateError(`a ${base} rate for ${input.date} is already recorded (recorded rates are not changed)`);
  return { rate: inserted[0].rate, date: input.date, source, fixture: Boolean(input.fixture) };
}

export async function listRates(db: Db, limit = 30) {
  return db.select().from(billingExchangeRates).orderBy(desc(billingExchangeRates.effectiveOn)).limit(limit);
}

/** The rate in force on the UTC day of `supply`, or null. */
export async function rateInForce(q: Queryable, base: string, supply: Date): Promise<ExchangeRateUsed | null> {
  const day = supply.toISOString().slice(0, 10);
  const oldest = new Date(supply.getTime() - RATE_MAX_AGE_DAYS * 86_400_000).toISOString().slice(0, 10);
  const [row] = await q
    .select()
    .from(billingExchangeRates)
    .where(
      and(
        eq(billingExchangeRates.base, base),
        eq(billingExchangeRates.quote, 'AED'),
        lte(billingExchangeRates.effectiveOn, day),
        gte(billingExchangeRates.effectiveOn, oldest),
      ),
    )
    .orderBy(desc(billingExchangeRates.effectiveOn))
    .limit(1);
  return row ? { rate: row.rate, date: row.effectiveOn, source: row.source, fixture: row.fixture } : null;
}

export const RATES_USAGE = [
  'usage: npm run rates -- add <currency> <YYYY-MM-DD> <AED per unit> <source…> [--fixture]',
  '       npm run rates -- list',
  'e.g.   npm run rates -- add SGD 2026-11-02 2.8412 CBUAE published rate',
].join('\n');

/** `npm run rates -- …` (scripts/rates.ts): what it prints and its exit code (2: bad arguments). */
export async function ratesCommand(db: Db, args: string[], now = new Date()): Promise<{ code: number; out: string }> {
  const [verb, ...rest] = args;
  if (verb === 'list' && rest.length === 0) {
    const rows = await listRates(db);
    if (!rows.length) return { code: 0, out: 'no rates recorded\n' };
    return {
      code: 0,
      out: rows
        .map(
          (r) => `${r.effectiveOn}  1 ${r.base} = ${r.rate} ${r.quote}  ${r.source}${r.fixture ? '  (fixture)' : ''}`,
        )
        .join('\n')
        .concat('\n'),
    };
  }
  if (verb === 'add') {
    const fixture = rest.includes('--fixture');
    const [base, date, rate, ...source] = rest.filter((a) => a !== '--fixture');
    if (!base || !date || !rate || !source.length) return { code: 2, out: `${RATES_USAGE}\n` };
    try {
      const added = await addRate(db, { base, date, rate, source: source.join(' '), fixture }, now);
      return {
        code: 0,
        out: `recorded: ${added.date}  1 ${base.toUpperCase()} = ${added.rate} AED  ${added.source}${fixture ? '  (fixture)' : ''}\n`,
      };
    } catch (error) {
      if (error instanceof RateError) return { code: 2, out: `rates: ${error.message}\n` };
      throw error;
    }
  }
  return { code: 2, out: `${RATES_USAGE}\n` };
}
