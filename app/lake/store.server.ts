import { randomBytes } from 'node:crypto';
import { asc, desc, eq, sql } from 'drizzle-orm';
import { lakeAssets, lakeDocuments, lakeTransactions } from '~/db/schema.server';
import type { Db } from '~/db/types.server';
import type { SanityDocument } from '~/sanity/types';
import {
  actionsToMutations,
  applyMutations,
  checkReferences,
  LakeError,
  type LakeDocument,
  type SanityMutationInput,
} from './mutations';
import { log as logger } from '~/lib/log.server';

/**
 * The local Content Lake's store (ADR 0025): the bundled dataset (read-only, from
 * studio/dataset/) with the Studio's edits layered over it. Every edit is one database
 * transaction: the documents it leaves (`lake_documents`, null for a deleted one) and a record of
 * the transaction with each document's state before and after (`lake_transactions`, for history
 * and for listeners). The overlay is kept in memory too (the database is only read at start), and
 * commits go one at a time (this process holds the data folder: one writer).
 */
export type Effect = {
  id: string;
  previousRev: string | null;
  resultRev: string | null;
  before: LakeDocument | null;
  after: LakeDocument | null;
};

export type LakeTransaction = {
  id: string;
  timestamp: string;
  author: string;
  effects: Effect[];
};

export type CommitListener = (transaction: LakeTransaction) => void;

/** `drafts.x` (drafts) and `versions.*` are never what a visitor sees. */
const isPublishedId = (id: string) => !id.startsWith('drafts.') && !id.startsWith('versions.');

export class LakeStore {
  private base = new Map<string, SanityDocument>();
  private overlay = new Map<string, LakeDocument | null>();
  private chain: Promise<unknown> = Promise.resolve();
  private listeners = new Set<CommitListener>();
  private version = 0;
  private merged: { version: number; docs: SanityDocument[] } | null = null;

  constructor(readonly db: Db) {}

  /** Grows on every commit and every reload of the bundled dataset (the query workers' copies follow it). */
  get snapshotVersion(): number {
    return this.version;
  }

  /** Reads the overlay from the database; `base` is the bundled dataset's documents. */
  async open(base: readonly SanityDocument[]): Promise<void> {
    this.setBase(base);
    const rows = await this.db.select().from(lakeDocuments);
    this.overlay.clear();
    for (const row of rows) this.overlay.set(row.id, (row.doc as LakeDocument | null) ?? null);
    this.version++;
  }

  /** The bundled dataset changed (the file was reloaded): the overlay stays over the new one. */
  setBase(base: readonly SanityDocument[]): void {
    this.base = new Map(base.map((doc) => [doc._id, doc]));
    this.version++;
  }

  /** The edits over the bundled dataset (null: deleted), for the site's content client. */
  overlayDocuments(): ReadonlyMap<string, LakeDocument | null> {
    return this.overlay;
  }

  get(id: string): LakeDocument | null {
    if (this.overlay.has(id)) return this.overlay.get(id) ?? null;
    const doc = this.base.get(id);
    return doc ? baseDocument(doc) : null;
  }

  /** Every document (drafts included): what the `raw` perspective sees. */
  all(): SanityDocument[] {
    if (this.merged?.version !== this.version) {
      const docs: SanityDocument[] = [];
      for (const [id, doc] of this.base) if (!this.overlay.has(id)) docs.push(baseDocument(doc));
      for (const doc of this.overlay.values()) if (doc) docs.push(doc);
      this.merged = { version: this.version, docs };
    }
    return this.merged.docs;
  }

  onCommit(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Applies Sanity mutations as one transaction; resolves once it is committed. With `dryRun`
   * (Sanity's `dryRun=true`) the transaction is checked and its effects returned, and nothing is
   * written: no row, no history entry, no listener event, no change the site sees.
   */
  mutate(
    mutations: readonly SanityMutationInput[],
    author: string,
    transactionId?: string,
    options: CommitOptions = {},
  ): Promise<LakeTransaction> {
    return this.enqueue(() =>
      this.commit((read, rev, now) => applyMutations(read, mutations, rev, now), author, transactionId, options),
    );
  }

  /** Applies Sanity document actions (edit, publish, …) as one transaction (`dryRun`: as for mutate). */
  act(
    actions: readonly Record<string, unknown>[],
    author: string,
    transactionId?: string,
    options: CommitOptions = {},
  ): Promise<LakeTransaction> {
    return this.enqueue(() =>
      this.commit(
        (read, rev, now) => applyMutations(read, actionsToMutations(read, actions), rev, now),
        author,
        transactionId,
        options,
      ),
    );
  }

  /** Transactions that touched any of `ids`, oldest first. */
  async transactions(ids: readonly string[]): Promise<LakeTransaction[]> {
    const rows = await this.db
      .select()
      .from(lakeTransactions)
      .where(
        sql`${lakeTransactions.documentIds} ?| array[${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}]::text[]`,
      )
      .orderBy(asc(lakeTransactions.seq));
    return rows.map((row) => ({
      id: row.id,
      timestamp: row.at.toISOString(),
      author: row.author,
      effects: row.effects as Effect[],
    }));
  }

  /** The document as it was at a revision (a transaction id), or null. */
  async revision(id: string, rev: string): Promise<LakeDocument | null> {
    const current = this.get(id);
    if (current?._rev === rev) return current;
    const [row] = await this.db.select().from(lakeTransactions).where(eq(lakeTransactions.id, rev)).limit(1);
    const effect = (row?.effects as Effect[] | undefined)?.find((e) => e.id === id);
    if (effect) return effect.after;
    // A revision of the bundled dataset (before any edit): the first transaction's `before`.
    for (const tx of await this.transactions([id])) {
      const first = tx.effects.find((e) => e.id === id);
      if (first?.before?._rev === rev) return first.before;
    }
    const base = this.base.get(id);
    return base && baseDocument(base)._rev === rev ? baseDocument(base) : null;
  }

  /** The document as it was at a time (the last transaction at or before it). */
  async atTime(id: string, time: Date): Promise<LakeDocument | null> {
    let doc: LakeDocument | null = this.base.has(id) ? baseDocument(this.base.get(id)!) : null;
    for (const tx of await this.transactions([id])) {
      if (new Date(tx.timestamp) > time) break;
      const effect = tx.effects.find((e) => e.id === id);
      if (effect) doc = effect.after;
    }
    return doc;
  }

  async saveAsset(fileName: string, assetDoc: LakeDocument, mimeType: string, bytes: Buffer, author: string) {
    await this.db
      .insert(lakeAssets)
      .values({ fileName, assetId: assetDoc._id, mimeType, bytes, createdAt: new Date() })
      .onConflictDoNothing();
    if (!this.get(assetDoc._id)) await this.mutate([{ createIfNotExists: assetDoc }], author);
    return this.get(assetDoc._id)!;
  }

  async asset(fileName: string): Promise<{ mimeType: string; bytes: Buffer } | null> {
    const [row] = await this.db.select().from(lakeAssets).where(eq(lakeAssets.fileName, fileName)).limit(1);
    return row ? { mimeType: row.mimeType, bytes: row.bytes } : null;
  }

  /** The last transactions, newest first (for `content:export` and diagnostics). */
  async recent(limit: number): Promise<LakeTransaction[]> {
    const rows = await this.db.select().from(lakeTransactions).orderBy(desc(lakeTransactions.seq)).limit(limit);
    return rows.map((row) => ({
      id: row.id,
      timestamp: row.at.toISOString(),
      author: row.author,
      effects: row.effects as Effect[],
    }));
  }

  /** Every image uploaded in the Studio. */
  async assets(): Promise<{ fileName: string; assetId: string; bytes: Buffer }[]> {
    return this.db
      .select({ fileName: lakeAssets.fileName, assetId: lakeAssets.assetId, bytes: lakeAssets.bytes })
      .from(lakeAssets);
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(task);
    this.chain = run.catch(() => {});
    return run;
  }

  private async commit(
    change: (read: (id: string) => LakeDocument | null, rev: string, now: string) => Map<string, LakeDocument | null>,
    author: string,
    transactionId?: string,
    options: CommitOptions = {},
  ): Promise<LakeTransaction> {
    // A client that went away while its transaction waited for the ones before it: nothing is done.
    if (options.signal?.aborted) throw new LakeError('The client went away', 499, 'aborted');
    const id =
      transactionId && /^[A-Za-z0-9_-]{1,80}$/.test(transactionId) ? transactionId : randomBytes(16).toString('hex');
    const now = new Date();
    const changed = change((docId) => this.get(docId), id, now.toISOString());
    // A deletion or unpublish of a document others refer to fails, as in a hosted project.
    checkReferences(changed, this.all());
    const effects: Effect[] = [];
    for (const [docId, after] of changed) {
      const before = this.get(docId);
      if (!before && !after) continue;
      effects.push({ id: docId, previousRev: before?._rev ?? null, resultRev: after ? id : null, before, after });
    }
    options.check?.(effects.map((e) => e.after));
    const transaction: LakeTransaction = { id, timestamp: now.toISOString(), author, effects };
    // A dry run stops here: the conditions were checked by `change` (a failed one threw), and the
    // would-be effects are returned without a write, a history entry or a listener event.
    if (!effects.length || options.dryRun) return transaction;
    try {
      await this.db.transaction(async (tx) => {
        for (const effect of effects) {
          const values = {
            id: effect.id,
            type: (effect.after ?? effect.before)?._type ?? null,
            rev: id,
            doc: effect.after,
            updatedAt: now,
          };
          await tx
            .insert(lakeDocuments)
            .values(values)
            .onConflictDoUpdate({
              target: lakeDocuments.id,
              set: { type: values.type, rev: id, doc: effect.after, updatedAt: now },
            });
        }
        await tx.insert(lakeTransactions).values({
          id,
          at: now,
          author,
          documentIds: effects.map((e) => e.id),
          effects,
        });
      });
    } catch (error) {
      if (String((error as { code?: unknown }).code) === '23505' || /lake_transactions_id_idx/.test(String(error)))
        throw new LakeError(`Transaction ID "${id}" already exists`, 409);
      throw error;
    }
    for (const effect of effects) this.overlay.set(effect.id, effect.after);
    this.version++;
    for (const listener of this.listeners) {
      try {
        listener(transaction);
      } catch (error) {
        logger.error(`[lake] listener failed: ${String(error)}`);
      }
    }
    return transaction;
  }
}

export type CommitOptions = {
  /** Check the transaction and return its effects without writing anything (Sanity's `dryRun`). */
  dryRun?: boolean;
  /** Aborted when the client goes away: a transaction not yet started is then dropped. */
  signal?: AbortSignal;
  /** Called with the documents the transaction would write, before anything is; throws to refuse it. */
  check?: (docs: readonly (LakeDocument | null)[]) => void;
};

/** Whether a transaction changed anything a visitor can see. */
export const touchesPublished = (transaction: LakeTransaction) => transaction.effects.some((e) => isPublishedId(e.id));

/**
 * A document of the bundled dataset as the lake serves it: with the system fields the Content Lake
 * always has (a fixed revision, so every load of the same file agrees).
 */
const baseCache = new WeakMap<SanityDocument, LakeDocument>();
function baseDocument(doc: SanityDocument): LakeDocument {
  let out = baseCache.get(doc);
  if (!out) {
    out = {
      _createdAt: '2026-01-01T00:00:00Z',
      _updatedAt: '2026-01-01T00:00:00Z',
      ...doc,
      _rev: typeof doc._rev === 'string' ? doc._rev : 'bundled',
    } as LakeDocument;
    baseCache.set(doc, out);
  }
  return out;
}
