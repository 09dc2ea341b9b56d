import { createClient, type SanityClient } from '@sanity/client';
import { validatePreviewUrl, type PreviewUrlValidateUrlResult } from '@sanity/preview-url-secret';
import { stegaFilter } from './stega.server';
import type {
  ContentClient,
  FetchOptions,
  Mutation,
  PrivateDocument,
  QueryParams,
  SanityDocument,
  StoredDocument,
} from './types';
import { ConflictError, isPrivateId, type ContentChangeListener, type ContentChangeOrigin } from './types';

export type HostedOptions = {
  projectId: string;
  dataset: string;
  apiVersion: string;
  readToken?: string;
  writeToken?: string;
  /** Where the Studio runs, for the edit links stega puts into preview text. */
  studioUrl?: string;
  /** Another Content Lake address (a local fake in tests); unset = https://{projectId}.api.sanity.io. */
  apiHost?: string;
};

/**
 * The hosted world: Sanity's Content Lake through @sanity/client.
 * Published reads go through the API CDN without a token; drafts need the read token
 * and bypass the CDN; writes need the write token and are only for private documents.
 *
 * Draft reads serve preview sessions only, so they carry stega: localized display text gets
 * invisible edit links for the Presentation tool's overlays (see stega.server.ts for which
 * strings, and why identifiers never do). Published reads never carry it.
 */
export class HostedContentClient implements ContentClient {
  readonly world = 'hosted' as const;
  private published: SanityClient;
  private drafts?: SanityClient;
  private writer?: SanityClient;
  private listeners = new Set<ContentChangeListener>();

  constructor(private options: HostedOptions) {
    const base = {
      projectId: options.projectId,
      dataset: options.dataset,
      apiVersion: options.apiVersion,
      // A custom host is used as it is (no project subdomain, and no separate CDN host).
      ...(options.apiHost ? { apiHost: options.apiHost, useProjectHostname: false } : {}),
    };
    this.published = createClient({ ...base, useCdn: true, perspective: 'published' });
    if (options.readToken) {
      this.drafts = createClient({
        ...base,
        useCdn: false,
        token: options.readToken,
        perspective: 'drafts',
        stega: { enabled: true, studioUrl: options.studioUrl ?? '/', filter: stegaFilter },
      });
    }
    if (options.writeToken) this.writer = createClient({ ...base, useCdn: false, token: options.writeToken });
  }

  fetch<T = unknown>(query: string, params: QueryParams, options: FetchOptions): Promise<T> {
    // A preview session reads through the token client, with stega, in either perspective:
    // the Studio's perspective switch may show published content, still clickable.
    if (options.perspective === 'drafts' || options.preview) {
      if (!this.drafts) throw new Error('Preview reads need SANITY_READ_TOKEN');
      return this.drafts.fetch<T>(query, params, { perspective: options.perspective });
    }
    return this.published.fetch<T>(query, params);
  }

  /**
   * Checks a URL the Studio's Presentation tool opened (/api/preview-mode/enable?sanity-preview-secret=…)
   * against the secrets the Studio stores in the dataset (@sanity/preview-url-secret; needs the
   * read token: the secret documents are private). Without a read token nothing is valid.
   */
  async validatePreviewUrl(url: string): Promise<PreviewUrlValidateUrlResult> {
    if (!this.drafts) return { isValid: false };
    // The package reconfigures a copy: raw perspective, no CDN, no stega, its own API version.
    return validatePreviewUrl(this.drafts, url);
  }

  async create(doc: PrivateDocument): Promise<{ _id: string }> {
    const created = await this.requireWriter(doc).create(doc);
    this.emit(new Set([doc._type]), 'write');
    return { _id: created._id };
  }

  async createIfNotExists(doc: PrivateDocument): Promise<{ _id: string; created: boolean }> {
    const writer = this.requireWriter(doc);
    const result = await writer
      .transaction()
      .createIfNotExists(doc)
      .commit({ returnDocuments: false, visibility: 'sync' });
    const created = result.results.some((r) => r.operation === 'create');
    if (created) this.emit(new Set([doc._type]), 'write');
    return { _id: doc._id, created };
  }

  /** Private documents are read and written with the write token, never through the CDN. */
  async getDocument<T extends SanityDocument = SanityDocument>(id: string): Promise<StoredDocument<T> | null> {
    const doc = await this.requireWriterFor(id).getDocument(id);
    return (doc as StoredDocument<T> | undefined) ?? null;
  }

  queryPrivate<T = unknown>(query: string, params: QueryParams = {}): Promise<T> {
    if (!this.writer) throw new Error('Private reads need SANITY_WRITE_TOKEN');
    return this.writer.fetch<T>(query, params, { perspective: 'raw', useCdn: false });
  }

  /**
   * One Sanity transaction; a failed condition is a ConflictError: 409 (revision changed, id
   * taken) or a mutation error answered 404 (a patched document is gone), as in the embedded store.
   */
  async mutate(mutations: Mutation[]): Promise<void> {
    if (!this.writer) throw new Error('Writes need SANITY_WRITE_TOKEN');
    for (const m of mutations) {
      const id = 'patch' in m ? m.patch.id : 'delete' in m ? m.delete.id : Object.values(m)[0]._id;
      if (!isPrivateId(id)) throw new Error(`Only private documents (id with a period) can be written: ${id}`);
    }
    try {
      await this.writer.mutate(mutations as never, { visibility: 'sync', returnDocuments: false });
    } catch (error) {
      const { statusCode, details } = error as { statusCode?: number; details?: { type?: string } };
      if (statusCode === 409 || (statusCode === 404 && details?.type === 'mutationError'))
        throw new ConflictError(String((error as Error).message));
      throw error;
    }
  }

  onChange(listener: ContentChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called by the webhook route when Sanity reports a change. */
  notify(types: Set<string> | 'all') {
    this.emit(types, 'content');
  }

  private emit(types: Set<string> | 'all', origin: ContentChangeOrigin) {
    for (const l of this.listeners) l(types, origin);
  }

  private requireWriterFor(id: string): SanityClient {
    if (!isPrivateId(id)) throw new Error(`Only private documents (id with a period) can be read this way: ${id}`);
    if (!this.writer) throw new Error('Private reads need SANITY_WRITE_TOKEN');
    return this.writer;
  }

  private requireWriter(doc: PrivateDocument): SanityClient {
    if (!isPrivateId(doc._id)) throw new Error(`Only private documents (id with a period) can be written: ${doc._id}`);
    if (!this.writer) throw new Error('Writes need SANITY_WRITE_TOKEN');
    return this.writer;
  }
}
