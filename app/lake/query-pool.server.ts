import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { QueryParams, SanityDocument } from '~/sanity/types';
import { LakeError } from './mutations';
import type { LakePerspective } from './query.server';

/**
 * The lake's GROQ queries run in a fixed pool of worker threads (app/lake/query-worker.mjs), never
 * on the thread that serves the site's pages (ADR 0025, "Limits"). Each worker keeps its own copy
 * of the lake's documents: the whole set when it starts (or after the bundled dataset reloads),
 * then only the documents each commit changed, so a query costs the main thread one message out
 * and one JSON string back. A query that runs past its time limit, or whose client goes away, ends
 * its worker (terminate: groq-js cannot be interrupted otherwise); the next query starts another.
 * Past the pool, up to `queue` queries wait; more are refused with 429 (which @sanity/client
 * retries for queries), as is one that waited its whole time limit.
 */
export type QuerySource = {
  all(): readonly SanityDocument[];
  /** Grows by one on every commit and on every reload of the bundled dataset. */
  readonly snapshotVersion: number;
  onCommit(listener: (tx: { effects: { id: string; after: SanityDocument | null }[] }) => void): () => void;
};

export type QueryPoolLimits = {
  /** Worker threads (each at most one query at a time). */
  workers: number;
  /** Queries that may wait for a worker; more are answered 429. */
  queue: number;
  /** From arrival: a query still waiting then is refused (429), one still running is ended (422). */
  timeoutMs: number;
  /** A worker's heap; a query that needs more ends it (422). */
  memoryMb: number;
};

/**
 * One core is left to the site's pages: on a 2-core machine one worker (an editor's heavy query
 * makes the Studio's other queries wait, never a visitor), at most 4.
 */
export const QUERY_POOL_LIMITS: QueryPoolLimits = {
  workers: Math.min(4, Math.max(1, availableParallelism() - 1)),
  queue: 32,
  timeoutMs: 10_000,
  memoryMb: 256,
};

type Job = {
  query: string;
  params: QueryParams;
  perspective: LakePerspective;
  resolve: (json: string) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  slot?: Slot;
  done: boolean;
};

type Slot = { worker: Worker; version: number; job: Job | null; dead: boolean };

let nextId = 1;

export class QueryPool {
  private slots: Slot[] = [];
  private waiting: Job[] = [];
  private readonly limits: QueryPoolLimits;
  private stopListening: () => void;
  /** How many workers were ended for a time limit, an abort or memory (for tests and logs). */
  ended = 0;

  constructor(
    private readonly source: QuerySource,
    limits: Partial<QueryPoolLimits> = {},
  ) {
    this.limits = { ...QUERY_POOL_LIMITS, ...limits };
    this.stopListening = source.onCommit((tx) => {
      // Up to date workers get the changed documents; one that missed a version (a reload of the
      // bundled dataset) gets the whole set before its next query.
      const version = source.snapshotVersion;
      const changes = tx.effects.map((e) => [e.id, e.after] as const);
      for (const slot of this.slots) {
        if (slot.dead || slot.version !== version - 1) continue;
        slot.worker.postMessage({ type: 'changes', changes });
        slot.version = version;
      }
    });
  }

  /** Runs a query; resolves with its result as JSON text. Rejects with LakeError (4xx). */
  run(query: string, params: QueryParams, perspective: LakePerspective, signal?: AbortSignal): Promise<string> {
    if (signal?.aborted) return Promise.reject(new LakeError('The client went away', 499, 'aborted'));
    if (this.waiting.length >= this.limits.queue && !this.idleSlot() && this.slots.length >= this.limits.workers)
      return Promise.reject(busy());
    return new Promise<string>((resolve, reject) => {
      const job: Job = {
        query,
        params,
        perspective,
        resolve,
        reject,
        done: false,
        timer: setTimeout(() => {
          if (job.slot)
            this.fail(
              job,
              new LakeError(
                `The query ran for more than ${this.limits.timeoutMs / 1000} s and was stopped: narrow its filter or project fewer fields`,
                422,
                'queryTimeout',
              ),
            );
          else this.fail(job, busy());
        }, this.limits.timeoutMs),
      };
      job.timer.unref();
      signal?.addEventListener('abort', () => this.fail(job, new LakeError('The client went away', 499, 'aborted')), {
        once: true,
      });
      this.waiting.push(job);
      this.pump();
    });
  }

  stats() {
    return { workers: this.slots.length, busy: this.slots.filter((s) => s.job).length, waiting: this.waiting.length };
  }

  async close(): Promise<void> {
    this.stopListening();
    for (const job of [...this.waiting]) this.fail(job, busy());
    await Promise.all(this.slots.map((slot) => this.end(slot)));
  }

  private idleSlot(): Slot | undefined {
    return this.slots.find((s) => !s.job && !s.dead);
  }

  private pump() {
    while (this.waiting.length) {
      const slot = this.idleSlot() ?? (this.slots.length < this.limits.workers ? this.start() : undefined);
      if (!slot) return;
      const job = this.waiting.shift()!;
      job.slot = slot;
      slot.job = job;
      if (slot.version !== this.source.snapshotVersion) {
        slot.worker.postMessage({ type: 'snapshot', docs: this.source.all() });
        slot.version = this.source.snapshotVersion;
      }
      slot.worker.postMessage({
        type: 'query',
        id: nextId++,
        query: job.query,
        params: job.params,
        perspective: job.perspective,
      });
    }
  }

  private start(): Slot {
    const file = process.env.LAKE_QUERY_WORKER ?? path.resolve('app/lake/query-worker.mjs');
    const worker = new Worker(file, {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb, maxYoungGenerationSizeMb: 32 },
    });
    // A worker never keeps the process alive (a test's or a closing server's).
    worker.unref();
    const slot: Slot = { worker, version: -1, job: null, dead: false };
    worker.on('message', (message: { json?: string; error?: { kind: string; message: string } }) => {
      const job = slot.job;
      if (!job) return;
      slot.job = null;
      if (message.error)
        this.settle(
          job,
          new LakeError(message.error.message, 400, message.error.kind === 'syntax' ? 'queryParseError' : 'queryError'),
        );
      else this.settle(job, message.json ?? 'null');
      this.pump();
    });
    const gone = (error?: Error) => {
      if (slot.dead) return;
      slot.dead = true;
      this.slots = this.slots.filter((s) => s !== slot);
      const job = slot.job;
      slot.job = null;
      if (job && !job.done) {
        this.ended++;
        const memory = /memory/i.test(String(error?.message ?? error));
        this.settle(
          job,
          new LakeError(
            memory
              ? `The query needed more than ${this.limits.memoryMb} MB and was stopped: narrow its filter or project fewer fields`
              : 'The query stopped unexpectedly',
            422,
            memory ? 'queryTooLarge' : 'queryError',
          ),
        );
      }
      this.pump();
    };
    worker.on('error', gone);
    worker.on('exit', () => gone());
    this.slots.push(slot);
    return slot;
  }

  private settle(job: Job, outcome: string | Error) {
    if (job.done) return;
    job.done = true;
    clearTimeout(job.timer);
    if (typeof outcome === 'string') job.resolve(outcome);
    else job.reject(outcome);
  }

  /** Ends a job early: a waiting one leaves the queue, a running one ends its worker. */
  private fail(job: Job, error: Error) {
    if (job.done) return;
    this.waiting = this.waiting.filter((j) => j !== job);
    const slot = job.slot;
    this.settle(job, error);
    if (slot && slot.job === job) {
      slot.job = null;
      this.ended++;
      void this.end(slot);
      this.pump();
    }
  }

  private async end(slot: Slot) {
    if (!slot.dead) {
      slot.dead = true;
      this.slots = this.slots.filter((s) => s !== slot);
    }
    await slot.worker.terminate();
  }
}

const busy = () => new LakeError('The lake is busy with other queries: try again in a moment', 429, 'queryQueueFull');
