import { createHash, randomBytes } from 'node:crypto';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { mkdir, open, readFile, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import { evaluate, parse } from 'groq-js';
import sharp from 'sharp';
import { isStudioOnly, stegaDocument } from './embedded-stega.server';
import { applyPerspective } from './perspective';
import { isMovedToDatabase, parseWriteLogLine, WRITES_FILE } from './write-log';
import {
  ConflictError,
  isPrivateId,
  type ContentChangeListener,
  type ContentChangeOrigin,
  type ContentClient,
  type FetchOptions,
  type Mutation,
  type Perspective,
  type PrivateDocument,
  type QueryParams,
  type SanityDocument,
  type StoredDocument,
} from './types';

/**
 * The embedded world: groq-js over the bundled dataset (Sanity's import format), plus a
 * durable local store for private documents (form submissions).
 *
 * - The dataset is parsed once and kept in memory; a change to the file reloads it.
 * - Image fields written as `_sanityAsset: "image@file://./images/x.jpg"` become
 *   `asset: { _ref: "image-{sha1}-{w}x{h}-{ext}" }` with a `sanity.imageAsset` document,
 *   exactly what `sanity dataset import` creates in a hosted project.
 * - Writes are appended to an NDJSON log and fsync'd before the promise resolves, so a
 *   submission we acknowledged survives a crash or restart; the log is merged into reads.
 * - Private writes are transactions (`mutate`, Sanity's mutation shapes): every condition is
 *   checked against the current state, then the whole transaction is ONE line of the log
 *   (`{"_tx": id, "docs": [...], "deleted": [...]}`), fsync'd, and only then applied in memory.
 *   A crash mid-line leaves a torn last line, skipped on load: a transaction is all or nothing.
 *   Older lines hold one document each and are read as before.
 */

export type EmbeddedOptions = {
  datasetFile: string;
  dataDir: string;
  projectId?: string;
  dataset?: string;
  watch?: boolean;
  log?: (message: string) => void;
};

export type ImageAssetFile = { file: string; extension: string; mimeType: string; width: number; height: number };

const MIME: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  svg: 'image/svg+xml',
};

export class EmbeddedContentClient implements ContentClient {
  readonly world = 'embedded' as const;
  readonly projectId: string;
  readonly dataset: string;
  private datasetFile: string;
  private dataDir: string;
  private log: (message: string) => void;
  private base: SanityDocument[] = [];
  private writes = new Map<string, SanityDocument>();
  private views = new Map<string, { docs: SanityDocument[]; byId: Map<string, SanityDocument> }>();
  /** Where the Studio is, when one edits this content (the local Content Lake): preview reads carry stega. */
  private stegaStudioUrl?: string;
  private assets = new Map<string, ImageAssetFile>();
  private ready: Promise<void>;
  private writeChain: Promise<unknown> = Promise.resolve();
  private listeners = new Set<ContentChangeListener>();
  private watcher?: FSWatcher;
  /** The local Content Lake's edits over the bundled dataset (null: deleted), see app/lake/. */
  private overlay?: () => ReadonlyMap<string, SanityDocument | null>;
  private extraAssets?: (fileName: string) => Promise<ImageAssetFile | undefined>;
  private baseListeners = new Set<(docs: readonly SanityDocument[]) => void>();

  constructor(options: EmbeddedOptions) {
    this.datasetFile = path.resolve(options.datasetFile);
    this.dataDir = path.resolve(options.dataDir);
    this.projectId = options.projectId ?? 'embedded';
    this.dataset = options.dataset ?? 'production';
    this.log = options.log ?? (() => {});
    this.ready = this.load().then(() => this.loadWrites());
    if (options.watch) this.startWatching();
  }

  /** Resolves once the dataset and the write log are in memory. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  get documentCount(): number {
    return this.base.length + this.writes.size;
  }

  /** The file behind an image asset, for the image resource route. */
  async imageAsset(fileName: string): Promise<ImageAssetFile | undefined> {
    await this.ready;
    return this.assets.get(fileName) ?? (await this.extraAssets?.(fileName));
  }

  /** Images uploaded in the Studio (the local Content Lake keeps them, app/lake/). */
  setExtraAssets(lookup: (fileName: string) => Promise<ImageAssetFile | undefined>): void {
    this.extraAssets = lookup;
  }

  /** The bundled dataset's documents (image assets included), once loaded. */
  async baseDocuments(): Promise<readonly SanityDocument[]> {
    await this.ready;
    return this.base;
  }

  /** Called with the new documents whenever the bundled dataset is reloaded. */
  onBaseReload(listener: (docs: readonly SanityDocument[]) => void): () => void {
    this.baseListeners.add(listener);
    return () => this.baseListeners.delete(listener);
  }

  /**
   * Lays the local Content Lake's documents over the bundled dataset for every read (app/lake/).
   * `overlayChanged` after each of its commits: reads see it at once; a change to a published
   * document empties the page and query caches as a webhook would (origin 'content').
   */
  setOverlay(overlay: () => ReadonlyMap<string, SanityDocument | null>): void {
    this.overlay = overlay;
    this.views.clear();
  }

  /**
   * Preview reads (`preview: true`) carry stega edit links to the Studio at `studioUrl`, for the
   * Presentation tool's overlays (embedded-stega.server.ts). Set by the local Content Lake.
   */
  setStega(studioUrl: string): void {
    this.stegaStudioUrl = studioUrl;
    this.views.clear();
  }

  overlayChanged(types: Set<string>, publishedChanged: boolean): void {
    this.views.clear();
    this.emit(types, publishedChanged ? 'content' : 'write');
  }

  async fetch<T = unknown>(query: string, params: QueryParams, options: FetchOptions): Promise<T> {
    await this.ready;
    const { docs: dataset, byId } = this.view(options.perspective, options.preview === true);
    // Params go to parse too: without them groq-js reads `title[$lang]` as a filter.
    const tree = parse(query, { params });
    // `->` looks the id up in an index: groq-js alone scans the whole dataset for every
    // reference it follows, which grows with the content (a list of N posts would cost N scans).
    const result = await evaluate(tree, { dataset, params, dereference: ({ _ref }) => byId.get(_ref) ?? null });
    return (await result.get()) as T;
  }

  async create(doc: PrivateDocument): Promise<{ _id: string }> {
    try {
      await this.mutate([{ create: doc }]);
    } catch (error) {
      if (error instanceof ConflictError) throw new Error(`Document ${doc._id} already exists`, { cause: error });
      throw error;
    }
    return { _id: doc._id };
  }

  createIfNotExists(doc: PrivateDocument): Promise<{ _id: string; created: boolean }> {
    return this.enqueueWrite(async () => {
      if (this.writes.has(doc._id)) return { _id: doc._id, created: false };
      await this.commit(this.apply([{ createIfNotExists: doc }]));
      return { _id: doc._id, created: true };
    });
  }

  async getDocument<T extends SanityDocument = SanityDocument>(id: string): Promise<StoredDocument<T> | null> {
    await this.ready;
    const doc = this.writes.get(id);
    return doc ? (structuredClone(doc) as StoredDocument<T>) : null;
  }

  async queryPrivate<T = unknown>(query: string, params: QueryParams = {}): Promise<T> {
    // Reads after every write committed before it (the write chain), over published + private.
    return this.fetch<T>(query, params, { perspective: 'published' });
  }

  mutate(mutations: Mutation[]): Promise<void> {
    return this.enqueueWrite(async () => {
      await this.commit(this.apply(mutations));
    });
  }

  /**
   * The documents a transaction leaves, checked against the current state; throws ConflictError
   * (and changes nothing) when a condition fails. `patch.set` and `unset` take top-level keys.
   */
  private apply(mutations: Mutation[]): { docs: Map<string, SanityDocument>; deleted: Set<string> } {
    const now = new Date().toISOString();
    const rev = randomBytes(9).toString('base64url');
    const docs = new Map<string, SanityDocument>();
    const deleted = new Set<string>();
    const current = (id: string) => (deleted.has(id) ? undefined : (docs.get(id) ?? this.writes.get(id)));
    const put = (doc: SanityDocument, createdAt?: unknown) => {
      if (!isPrivateId(doc._id))
        throw new Error(`Only private documents (id with a period) can be written: ${doc._id}`);
      if (isMovedToDatabase(doc._id))
        throw new Error(`${doc._id}: this kind of record lives in the database (app/db/)`);
      deleted.delete(doc._id);
      docs.set(doc._id, { ...doc, _createdAt: createdAt ?? now, _updatedAt: now, _rev: rev });
    };
    for (const m of mutations) {
      if ('create' in m) {
        if (current(m.create._id)) throw new ConflictError(`Document ${m.create._id} already exists`);
        put(m.create);
      } else if ('createIfNotExists' in m) {
        if (!current(m.createIfNotExists._id)) put(m.createIfNotExists);
      } else if ('createOrReplace' in m) {
        put(m.createOrReplace, current(m.createOrReplace._id)?._createdAt);
      } else if ('patch' in m) {
        const { id, ifRevisionID, set, unset } = m.patch;
        const doc = current(id);
        if (!doc) throw new ConflictError(`Document ${id} does not exist`);
        if (ifRevisionID !== undefined && doc._rev !== ifRevisionID)
          throw new ConflictError(`Document ${id} has revision ${String(doc._rev)}, not ${ifRevisionID}`);
        const next: SanityDocument = { ...doc, ...(set ?? {}) };
        for (const key of unset ?? []) delete next[key];
        for (const key of ['_id', '_type'] as const) next[key] = doc[key];
        put(next, doc._createdAt);
      } else if ('delete' in m) {
        if (current(m.delete.id)) {
          docs.delete(m.delete.id);
          deleted.add(m.delete.id);
        } else docs.delete(m.delete.id);
      }
    }
    return { docs, deleted };
  }

  onChange(listener: ContentChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.watcher?.close();
  }

  /**
   * Re-reads the dataset file now (a signed webhook in the embedded world does this).
   * A file that cannot be read or parsed leaves the last good content in place.
   */
  async reload(): Promise<boolean> {
    const next = this.ready.then(() => this.load());
    this.ready = next.catch(() => {});
    try {
      await next;
    } catch (error) {
      this.log(`could not reload the dataset, keeping the last good content: ${String(error)}`);
      return false;
    }
    this.emit('all', 'content');
    return true;
  }

  private view(
    perspective: Perspective,
    preview = false,
  ): { docs: SanityDocument[]; byId: Map<string, SanityDocument> } {
    const studioUrl = preview ? this.stegaStudioUrl : undefined;
    const key = studioUrl ? `${perspective}:stega` : perspective;
    let view = this.views.get(key);
    if (!view) {
      const overlay = this.overlay?.();
      const base = overlay?.size ? this.base.filter((doc) => !overlay.has(doc._id)) : this.base;
      const edited: SanityDocument[] = [];
      if (overlay) for (const doc of overlay.values()) if (doc && !isStudioOnly(doc)) edited.push(doc);
      let all = [...base, ...edited, ...this.writes.values()];
      // Encoded before the perspective lays drafts over published: each link names its real id.
      if (studioUrl) all = all.map((doc) => stegaDocument(doc, studioUrl));
      const docs = applyPerspective(all, perspective);
      view = { docs, byId: new Map(docs.map((doc) => [doc._id, doc])) };
      this.views.set(key, view);
    }
    return view;
  }

  private enqueueWrite<T>(task: () => Promise<T>): Promise<T> {
    const run = this.ready.then(task);
    // Keep the chain alive after a failed write; the caller still sees the failure.
    this.writeChain = run.catch(() => {});
    this.ready = this.writeChain.then(() => {});
    return run;
  }

  /** Appends one transaction as one fsync'd line, then applies it in memory. */
  private async commit({ docs, deleted }: { docs: Map<string, SanityDocument>; deleted: Set<string> }): Promise<void> {
    if (!docs.size && !deleted.size) return;
    const types = new Set<string>();
    for (const doc of docs.values()) types.add(doc._type);
    for (const id of deleted) {
      const type = this.writes.get(id)?._type;
      if (type) types.add(type);
    }
    const line = JSON.stringify({
      _tx: randomBytes(9).toString('base64url'),
      docs: [...docs.values()],
      deleted: [...deleted],
    });
    await mkdir(this.dataDir, { recursive: true });
    const file = path.join(this.dataDir, WRITES_FILE);
    const isNew = !existsSync(file);
    const handle = await open(file, 'a');
    try {
      await handle.write(line + '\n');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (isNew) await syncDirectory(this.dataDir);
    for (const id of deleted) this.writes.delete(id);
    for (const doc of docs.values()) this.writes.set(doc._id, doc);
    this.views.clear();
    this.emit(types, 'write');
  }

  private emit(types: Set<string> | 'all', origin: ContentChangeOrigin) {
    for (const listener of this.listeners) {
      try {
        listener(types, origin);
      } catch (error) {
        this.log(`content change listener failed: ${String(error)}`);
      }
    }
  }

  private async load(): Promise<void> {
    const text = await readFile(this.datasetFile, 'utf8');
    const docs: SanityDocument[] = [];
    const assetDocs = new Map<string, SanityDocument>();
    const assets = new Map<string, ImageAssetFile>();
    const datasetDir = path.dirname(this.datasetFile);
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].trim();
      if (!line) continue;
      let doc: SanityDocument;
      try {
        doc = JSON.parse(line);
      } catch {
        throw new Error(`${this.datasetFile}:${i + 1}: not valid JSON`);
      }
      docs.push(await this.resolveAssets(doc, datasetDir, assetDocs, assets));
    }
    this.base = [...docs, ...assetDocs.values()];
    this.assets = assets;
    this.views.clear();
    for (const listener of this.baseListeners) listener(this.base);
  }

  private async loadWrites(): Promise<void> {
    const file = path.join(this.dataDir, WRITES_FILE);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return;
    }
    if (text && !text.endsWith('\n')) {
      // A crash cut the last write short. It was never acknowledged: drop it from the file too,
      // or the next write would be appended to the fragment and be unreadable itself.
      const keep = text.lastIndexOf('\n') + 1;
      this.log(`skipped an incomplete line in ${file} (a write cut short by a crash; it was never acknowledged)`);
      await truncate(file, Buffer.byteLength(text.slice(0, keep)));
      text = text.slice(0, keep);
    }
    let moved = 0;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const entry = parseWriteLogLine(line);
      if (!entry) {
        // A torn last line from a crash mid-write: it was never acknowledged.
        this.log(`skipped an incomplete line in ${file}`);
        continue;
      }
      for (const id of entry.deleted) this.writes.delete(id);
      for (const doc of entry.docs) {
        // Submissions, form tokens and rate limits live in the database now (imported once).
        if (isMovedToDatabase(doc._id)) moved++;
        else this.writes.set(doc._id, doc);
      }
    }
    if (moved)
      this.log(
        `${file}: ${moved} private records (submissions, portal, billing) are in the database now, not read from here`,
      );
    this.views.clear();
  }

  private async resolveAssets(
    value: SanityDocument,
    datasetDir: string,
    assetDocs: Map<string, SanityDocument>,
    assets: Map<string, ImageAssetFile>,
  ): Promise<SanityDocument> {
    const walk = async (node: unknown): Promise<unknown> => {
      if (Array.isArray(node)) return Promise.all(node.map(walk));
      if (!node || typeof node !== 'object') return node;
      const obj = node as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(obj)) if (k !== '_sanityAsset') out[k] = await walk(v);
      if (typeof obj._sanityAsset === 'string') {
        const match = /^image@file:\/\/(.+)$/.exec(obj._sanityAsset);
        if (!match) throw new Error(`Unsupported asset reference ${obj._sanityAsset}`);
        const assetId = await this.registerImage(path.resolve(datasetDir, match[1]), assetDocs, assets);
        out.asset = { _type: 'reference', _ref: assetId };
      }
      return out;
    };
    return (await walk(value)) as SanityDocument;
  }

  private async registerImage(
    file: string,
    assetDocs: Map<string, SanityDocument>,
    assets: Map<string, ImageAssetFile>,
  ) {
    const bytes = await readFile(file);
    const sha1 = createHash('sha1').update(bytes).digest('hex');
    const extension = path.extname(file).slice(1).toLowerCase().replace('jpeg', 'jpg');
    const meta = await sharp(bytes).metadata();
    const width = meta.width ?? 0;
    const height = meta.height ?? 0;
    const assetId = `image-${sha1}-${width}x${height}-${extension}`;
    const fileName = `${sha1}-${width}x${height}.${extension}`;
    if (!assetDocs.has(assetId)) {
      assetDocs.set(assetId, {
        _id: assetId,
        _type: 'sanity.imageAsset',
        assetId: sha1,
        extension,
        mimeType: MIME[extension] ?? 'application/octet-stream',
        originalFilename: path.basename(file),
        path: `images/${this.projectId}/${this.dataset}/${fileName}`,
        url: `/images/${this.projectId}/${this.dataset}/${fileName}`,
        size: bytes.length,
        metadata: {
          _type: 'sanity.imageMetadata',
          dimensions: { _type: 'sanity.imageDimensions', width, height, aspectRatio: width / (height || 1) },
          hasAlpha: meta.hasAlpha ?? false,
        },
      });
      assets.set(fileName, { file, extension, mimeType: MIME[extension] ?? 'application/octet-stream', width, height });
    }
    return assetId;
  }

  private startWatching() {
    let timer: NodeJS.Timeout | undefined;
    let lastStamp = '';
    const reload = async () => {
      try {
        const s = await stat(this.datasetFile);
        const stamp = `${s.mtimeMs}:${s.size}`;
        if (stamp === lastStamp) return;
        lastStamp = stamp;
        const next = this.ready.then(() => this.load());
        // A broken file keeps the last good content in memory.
        this.ready = next.catch(() => {});
        await next;
        this.log(`reloaded ${path.relative(process.cwd(), this.datasetFile)} (${this.base.length} documents)`);
        this.emit('all', 'content');
      } catch (error) {
        this.log(`could not reload the dataset: ${String(error)}`);
      }
    };
    stat(this.datasetFile).then(
      (s) => (lastStamp = `${s.mtimeMs}:${s.size}`),
      () => {},
    );
    try {
      // Watch the folder: editors and git replace the file rather than write it in place.
      this.watcher = watch(path.dirname(this.datasetFile), (_event, name) => {
        if (name && name.toString() !== path.basename(this.datasetFile)) return;
        clearTimeout(timer);
        timer = setTimeout(reload, 100);
      });
      this.watcher.unref();
    } catch (error) {
      this.log(`not watching the dataset: ${String(error)}`);
    }
  }
}

async function syncDirectory(dir: string) {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems refuse fsync on a directory; the file itself is synced.
  }
}
