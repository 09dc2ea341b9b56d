/** Shared types of the content client, safe to import from client and server code. */
export type Perspective = 'published' | 'drafts';

export type SanityDocument = { _id: string; _type: string; [field: string]: unknown };

/** A private document: its id holds a period, so a hosted dataset never serves it publicly. */
export type PrivateDocument = SanityDocument & { _id: `${string}.${string}` };

export type QueryParams = Record<string, unknown>;

export type FetchOptions = { perspective: Perspective; preview?: boolean };

export interface ContentClient {
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
  /** Called with the changed document types whenever content changes (embedded: file or write). */
  onChange(listener: (types: Set<string> | 'all') => void): () => void;
}

export function isPrivateId(id: string): id is `${string}.${string}` {
  return id.includes('.') && !id.startsWith('drafts.') && !id.startsWith('versions.');
}
