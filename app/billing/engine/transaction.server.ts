import {
  isConflict,
  type Mutation,
  type PrivateDocument,
  type PrivateStore,
  type StoredDocument,
} from '~/sanity/types';
import { BillingError, type BillingEvent } from '../types';
import { DOC, TYPE, type CounterDoc, type EventDoc } from './documents';
import { newId } from './ids.server';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An event before the engine gives it its id and time. */
export type EventBody = DistributiveOmit<BillingEvent, 'id' | 'created'>;

export const INVOICE_PREFIX = 'BWB';

/**
 * Orders events recorded in the same millisecond: it only grows in this process, so events of
 * one transaction, and of transactions one after another, keep their order.
 */
let eventSequence = 0;

/**
 * One engine transaction: the writes of one state change, its invoice numbers and its events,
 * sent to the store as ONE atomic `mutate`. Every document the change was computed from is
 * written with `ifRevisionID` (or created, which fails if the id exists), so a concurrent
 * change makes the whole transaction fail with a ConflictError and nothing is applied.
 */
export class Tx {
  private readonly mutations: Mutation[] = [];
  private readonly counters = new Map<number, { rev: string | null; last: number }>();
  private readonly eventDocs: EventDoc[] = [];

  constructor(
    private readonly store: PrivateStore,
    readonly now: Date,
  ) {}

  create(doc: PrivateDocument): void {
    this.mutations.push({ create: doc });
  }

  /** Sets fields of a document read earlier, on the condition that it has not changed since. */
  patch(doc: StoredDocument, set: Record<string, unknown>): void {
    this.mutations.push({ patch: { id: doc._id, ifRevisionID: doc._rev, set } });
  }

  /**
   * The next invoice number of the year of `created` (UTC): BWB-2026-0001, … The year's counter
   * is written in this same transaction, conditionally, so a number is never given twice nor
   * skipped: a concurrent transaction that took a number makes this one fail and retry.
   */
  async invoiceNumber(created: Date): Promise<{ number: string; sequence: number }> {
    const year = created.getUTCFullYear();
    let counter = this.counters.get(year);
    if (!counter) {
      const doc = await this.store.getDocument<CounterDoc>(DOC.invoiceCounter(year));
      counter = { rev: doc?._rev ?? null, last: doc?.last ?? 0 };
      this.counters.set(year, counter);
    }
    counter.last += 1;
    return {
      number: `${INVOICE_PREFIX}-${year}-${String(counter.last).padStart(4, '0')}`,
      sequence: year * 1_000_000 + counter.last,
    };
  }

  /** Records an event in the outbox, undelivered, in this transaction. */
  event(body: EventBody): BillingEvent {
    const id = newId('evt');
    const created = this.now.toISOString();
    const event = { ...body, id, created } as BillingEvent;
    this.eventDocs.push({
      _id: DOC.event(id),
      _type: TYPE.event,
      eventId: id,
      eventType: event.type,
      created,
      sortKey: `${String(this.now.getTime()).padStart(15, '0')}.${String(++eventSequence).padStart(12, '0')}`,
      delivered: false,
      deliveredAt: null,
      event,
    });
    return event;
  }

  get eventCount(): number {
    return this.eventDocs.length;
  }

  async commit(): Promise<void> {
    const mutations = [...this.mutations];
    for (const [year, counter] of this.counters) {
      const id = DOC.invoiceCounter(year);
      if (counter.rev) mutations.push({ patch: { id, ifRevisionID: counter.rev, set: { last: counter.last } } });
      else mutations.push({ create: { _id: id, _type: TYPE.counter, year, last: counter.last } });
    }
    for (const doc of this.eventDocs) mutations.push({ create: doc as unknown as PrivateDocument });
    if (mutations.length) await this.store.mutate(mutations);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs read → compute → write until the write is not refused for a conflict: each retry reads
 * the state the winner left. Gives up (BillingError unavailable) after `attempts`.
 */
export async function withRetry<T>(task: () => Promise<T>, attempts = 40): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (!isConflict(error)) throw error;
      if (attempt >= attempts)
        throw new BillingError('unavailable', `Billing is busy, please try again (${error.message})`);
      // Jittered backoff so concurrent writers spread out.
      await sleep(Math.random() * Math.min(100, 2 ** attempt));
    }
  }
}
