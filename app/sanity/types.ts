/** Shared types of the content client, safe to import from client and server code. */
export type Perspective = 'published' | 'drafts';

export type SanityDocument = { _id: string; _type: string; [field: string]: unknown };

/** A private document: its id holds a period, so a hosted dataset never serves it publicly. */
export type PrivateDocument = SanityDocument & { _id: `${string}.${string}` };

export type QueryParams = Record<string, unknown>;

export type FetchOptions = { perspective: Perspective; preview?: boolean };

export interface ContentClient extends PrivateStore {
  readonly world: 'embedded' | 'hosted';
  /**
   * Run a GROQ query. The perspective is named on every call. `preview` marks a read for a
   * preview session (hosted: the token client with stega, even for published content).
   */
  fetch<T = unknown>(query: string, params: QueryParams, options: FetchOptions): Promise<T>;
  /** Store a new private document; resolves only once it is durable. */
  create(doc: PrivateDocument): Promise<{ _id: string }>;
  /** Store a private document unless one with this id exists; resolves once durable. */
  createIfNotExists(doc: PrivateDocument): Promise<{ _id: string; created: boolean }>;
  /**
   * Called with the changed document types whenever content changes, and where the change came
   * from: `'content'` (the dataset file, a reload, a webhook) or `'write'` (this server stored
   * private documents: ids with a period, which no public page reads).
   */
  onChange(listener: ContentChangeListener): () => void;
}

export type ContentChangeOrigin = 'content' | 'write';
export type ContentChangeListener = (types: Set<string> | 'all', origin: ContentChangeOrigin) => void;

export function isPrivateId(id: string): id is `${string}.${string}` {
  return id.includes('.') && !id.startsWith('drafts.') && !id.startsWith('versions.');
}

/**
 * Writes of private documents, shaped like Sanity's mutations API so the hosted adapter can
 * send them as they are. A list of mutations given to `ContentClient.mutate` is one atomic
 * transaction: every condition holds and all apply, or none does.
 * - `create` fails (ConflictError) when the id exists; `createIfNotExists` is a no-op then.
 * - `patch` with `ifRevisionID` fails (ConflictError) unless the document's current `_rev`
 *   is that revision; a patch of a missing document fails too.
 * - `delete` of a missing document is a no-op.
 */
export type Mutation =
  | { create: PrivateDocument }
  | { createIfNotExists: PrivateDocument }
  | { createOrReplace: PrivateDocument }
  | { patch: { id: string; ifRevisionID?: string; set?: Record<string, unknown>; unset?: string[] } }
  | { delete: { id: string } };

/** A stored private document, with the revision its next conditional write must name. */
export type StoredDocument<T extends SanityDocument = SanityDocument> = T & {
  _rev: string;
  _createdAt: string;
  _updatedAt: string;
};

/** A transaction's condition failed (revision changed, id taken, document gone): nothing was applied. */
export class ConflictError extends Error {
  readonly conflict = true;
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}

export function isConflict(error: unknown): error is ConflictError {
  return typeof error === 'object' && error !== null && (error as { conflict?: unknown }).conflict === true;
}

/**
 * The private store behind the client portal (accounts, sign-in codes, processed events,
 * reminder markers, the mail queue, and in the embedded world the billing engine's state).
 * Implemented by both content adapters: embedded (the fsync'd write log) and hosted (the
 * Sanity dataset with the write token). Reads here always see the latest committed writes.
 */
export interface PrivateStore {
  /** One private document by id, or null. */
  getDocument<T extends SanityDocument = SanityDocument>(id: string): Promise<StoredDocument<T> | null>;
  /** A GROQ query over private documents (raw: no perspective, no CDN, never cached). */
  queryPrivate<T = unknown>(query: string, params?: QueryParams): Promise<T>;
  /** Apply the mutations as one atomic transaction; resolves once durable. Throws ConflictError. */
  mutate(mutations: Mutation[]): Promise<void>;
}
