import type { TaxProfile } from './profile';
import { taxTreatment, type TaxTreatment } from './rules';

/**
 * An issued invoice's tax content, frozen when it is issued and stored with it (the engine's
 * billing_invoices.tax): the supplier's profile, the client's details known then, the lines,
 * the totals and, for a UAE supplier billing in SGD, the AED figures with the rate used. The
 * invoice page and PDF render only from it, so a later change of address, price or profile
 * never changes an issued invoice. `version` marks the shape: an invoice without a snapshot was
 * issued before tax invoices and renders as it always did; a later shape (credit notes, PINT AE)
 * gets the next number and its own renderer branch.
 *
 * Money is in minor units (SGD cents, AED fils); rates are decimal strings (never floats).
 */
export interface Bilingual {
  en: string;
  ar: string;
}

export interface SnapshotLine {
  description: Bilingual;
  /** The package's key (a PlanKey; kept as text so that this module needs nothing from types.ts, which refers to it). */
  plan: string | null;
  quantity: number;
  /** Net unit price in cents. */
  unitPrice: number;
  net: number;
  ratePercent: number;
  tax: number;
}

export interface ExchangeRateUsed {
  /** AED per 1 SGD, as recorded. */
  rate: string;
  /** The day the rate is published for (YYYY-MM-DD). */
  date: string;
  source: string;
  /** A test or demo rate, not a published one: printed as such. */
  fixture: boolean;
}

export interface AedFigures {
  exchangeRate: ExchangeRateUsed;
  /** Per line, in fils: each converted and rounded to the fils on its own (VATP006). */
  lines: { net: number; tax: number }[];
  /** Sums of the rounded lines. */
  totals: { net: number; tax: number; gross: number };
}

export interface ClientDetails {
  name: string;
  company: string | null;
  email: string;
  address: string | null;
  country: string | null;
  /**
   * The country's name in both languages at issue, printed under the address (snapshots from
   * details that name the country in a field of its own; older ones have it in their address).
   */
  countryName?: Bilingual;
  registrationNumber: string | null;
  /** The client's Peppol participant ID ("0235:" + TIN) where it is not derived from a UAE TRN (PINT AE). */
  peppolParticipantId?: string | null;
}

interface SnapshotBase {
  version: 1;
  /** The date of supply (the period's start). */
  supplyDate: string;
  periodStart: string;
  periodEnd: string;
  supplier: {
    legalName: Bilingual;
    address: Bilingual;
    country: TaxProfile['country'];
    registrationNumber: string | null;
    demo: boolean;
    /** The profile's e-invoicing details when it had them (absent on snapshots from before). */
    eInvoicing?: TaxProfile['eInvoicing'];
  };
  client: ClientDetails;
  treatment: TaxTreatment;
  pricesIncludeTax: boolean;
  currency: 'SGD';
  lines: SnapshotLine[];
  totals: { net: number; tax: number; gross: number };
}

/**
 * `issued`: complete, with its issue date. `waiting`: a UAE supplier's invoice in SGD whose date
 * of supply has no AED rate yet; it is completed (issuedAt, aed) by the jobs once the operator
 * records one, and never with a made-up rate.
 */
export type InvoiceSnapshot =
  | (SnapshotBase & { status: 'issued'; issuedAt: string; aed: AedFigures | null })
  | (SnapshotBase & { status: 'waiting'; waitingFor: 'exchange-rate'; issuedAt: null; aed: null });

/**
 * The demo's and the tests' SGD→AED rate: marked as a fixture on every invoice that uses it, and
 * used only by the built-in demo profile (a real profile waits for a recorded rate instead).
 */
export const DEMO_FIXTURE_RATE: Omit<ExchangeRateUsed, 'date'> = {
  rate: '2.8500',
  source: 'Fixture rate for the demo and tests, not a published rate',
  fixture: true,
};

/** Half away from zero of a non-negative BigInt ratio: the "nearest fils/cent" of the FTA and IRAS. */
function roundDiv(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

/** A decimal string as an integer and its power of ten: "3.6725" → [36725n, 10000n]. */
export function parseDecimal(value: string): [bigint, bigint] {
  const m = /^(\d{1,6})(?:\.(\d{1,8}))?$/.exec(value.trim());
  if (!m) throw new Error(`not a decimal rate: ${JSON.stringify(value)}`);
  const fraction = m[2] ?? '';
  return [BigInt(m[1] + fraction), 10n ** BigInt(fraction.length)];
}

/** The tax of a line: exclusive prices add it; inclusive prices hold it (tax = gross × r / (100 + r)). */
export function splitLine(price: number, ratePercent: number, pricesIncludeTax: boolean): { net: number; tax: number } {
  const [rate, scale] = parseDecimal(String(ratePercent));
  const cents = BigInt(price);
  if (pricesIncludeTax) {
    const tax = roundDiv(cents * rate, 100n * scale + rate);
    return { net: Number(cents - tax), tax: Number(tax) };
  }
  return { net: price, tax: Number(roundDiv(cents * rate, 100n * scale)) };
}

/** SGD cents to AED fils at `rate` AED per SGD, rounded to the fils. */
export function toFils(cents: number, rate: string): number {
  const [r, scale] = parseDecimal(rate);
  return Number(roundDiv(BigInt(cents) * r, scale));
}

export function aedFigures(lines: Pick<SnapshotLine, 'net' | 'tax'>[], exchangeRate: ExchangeRateUsed): AedFigures {
  const converted = lines.map((l) => ({
    net: toFils(l.net, exchangeRate.rate),
    tax: toFils(l.tax, exchangeRate.rate),
  }));
  const net = converted.reduce((s, l) => s + l.net, 0);
  const tax = converted.reduce((s, l) => s + l.tax, 0);
  return { exchangeRate, lines: converted, totals: { net, tax, gross: net + tax } };
}

/** Whether this supplier's invoice must also show AED (a UAE supplier invoicing in another currency). */
export function needsAed(profile: Pick<TaxProfile, 'country' | 'registered'>): boolean {
  return profile.country === 'AE' && profile.registered;
}

export interface SnapshotInput {
  profile: TaxProfile;
  client: ClientDetails;
  lines: { description: Bilingual; plan: string | null; quantity: number; price: number }[];
  supplyDate: Date;
  periodStart: Date;
  periodEnd: Date;
  /** When it is issued (the engine's clock). */
  now: Date;
  /** The AED rate in force on the date of supply, or null when none is recorded. */
  exchangeRate: ExchangeRateUsed | null;
}

export function buildSnapshot(input: SnapshotInput): InvoiceSnapshot {
  const { profile } = input;
  const treatment = taxTreatment(profile, input.client.country);
  const lines: SnapshotLine[] = input.lines.map((l) => {
    const total = l.price * l.quantity;
    const { net, tax } = splitLine(total, treatment.ratePercent, profile.pricesIncludeTax);
    return {
      description: l.description,
      plan: l.plan,
      quantity: l.quantity,
      unitPrice: Math.round(net / l.quantity),
      net,
      ratePercent: treatment.ratePercent,
      tax,
    };
  });
  const net = lines.reduce((s, l) => s + l.net, 0);
  const tax = lines.reduce((s, l) => s + l.tax, 0);
  const base: SnapshotBase = {
    version: 1,
    supplyDate: input.supplyDate.toISOString(),
    periodStart: input.periodStart.toISOString(),
    periodEnd: input.periodEnd.toISOString(),
    supplier: {
      legalName: profile.legalName,
      address: profile.address,
      country: profile.country,
      registrationNumber: profile.registered ? profile.registrationNumber : null,
      demo: profile.demo,
      ...(profile.eInvoicing ? { eInvoicing: profile.eInvoicing } : {}),
    },
    client: input.client,
    treatment,
    pricesIncludeTax: profile.pricesIncludeTax,
    currency: 'SGD',
    lines,
    totals: { net, tax, gross: net + tax },
  };
  if (!needsAed(profile)) return { ...base, status: 'issued', issuedAt: input.now.toISOString(), aed: null };
  if (!input.exchangeRate)
    return { ...base, status: 'waiting', waitingFor: 'exchange-rate', issuedAt: null, aed: null };
  return completeSnapshot(base, input.exchangeRate, input.now);
}

/** A waiting snapshot completed with the rate now recorded (or a new one built with it). */
export function completeSnapshot(base: SnapshotBase, exchangeRate: ExchangeRateUsed, now: Date): InvoiceSnapshot {
  const { ...rest } = base as SnapshotBase & { waitingFor?: unknown; status?: unknown };
  delete rest.waitingFor;
  return {
    ...(rest as SnapshotBase),
    status: 'issued',
    issuedAt: now.toISOString(),
    aed: aedFigures(base.lines, exchangeRate),
  };
}
