import { createHash } from 'node:crypto';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { mkdir, open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { evaluate, parse } from 'groq-js';
import sharp from 'sharp';
import { applyPerspective } from './perspective';
import { isPrivateId, type ContentClient, type FetchOptions, type Perspective, type PrivateDocument, type QueryParams, type SanityDocument } from './types';

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

const WRITES_FILE = 'content-writes.ndjson';
const MIME: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', svg: 'image/svg+xml' };

export class EmbeddedContentClient implements ContentClient {
  readonly world = 'embedded' as const;
  readonly projectId: string;
  readonly dataset: string;
  private datasetFile: string;
  private dataDir: string;
  private log: (message: string) => void;
  private base: SanityDocument[] = [];
  private writes = new Map<string, SanityDocument>();
  private views = new Map<Perspective, SanityDocument[]>();
  private assets = new Map<string, ImageAssetFile>();
  private ready: Promise<void>;
  private writeChain: Promise<unknown> = Promise.resolve();
  private listeners = new Set<(types: Set<string> | 'all') => void>();
  private watcher?: FSWatcher;

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
    return this.assets.get(fileName);
  }

  async fetch<T = unknown>(query: string, params: QueryParams, options: FetchOptions): Promise<T> {
    await this.ready;
    const dataset = this.view(options.perspective);
    // Params go to parse too: without them groq-js reads `title[$lang]` as a filter.
    const tree = parse(query, { params });
    const result = await evaluate(tree, { dataset, params });
    return (await result.get()) as T;
  }

  create(doc: PrivateDocument): Promise<{ _id: string }> {
    return this.enqueueWrite(async () => {
      if (this.writes.has(doc._id)) throw new Error(`Document ${doc._id} already exists`);
      await this.persist(doc);
      return { _id: doc._id };
    });
  }

  createIfNotExists(doc: PrivateDocument): Promise<{ _id: string; created: boolean }> {
    return this.enqueueWrite(async () => {
      if (this.writes.has(doc._id)) return { _id: doc._id, created: false };
      await this.persist(doc);
      return { _id: doc._id, created: true };
    });
  }

  onChange(listener: (types: Set<string> | 'all') => void): () => void {
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
    this.emit('all');
    return true;
  }

  private view(perspective: Perspective): SanityDocument[] {
    let docs = this.views.get(perspective);
    if (!docs) {
      docs = applyPerspective([...this.base, ...this.writes.values()], perspective);
      this.views.set(perspective, docs);
    }
    return docs;
  }

  private enqueueWrite<T>(task: () => Promise<T>): Promise<T> {
    const run = this.ready.then(task);
    // Keep the chain alive after a failed write; the caller still sees the failure.
    this.writeChain = run.catch(() => {});
    this.ready = this.writeChain.then(() => {});
    return run;
  }

  private async persist(doc: PrivateDocument): Promise<void> {
    if (!isPrivateId(doc._id)) throw new Error(`Only private documents (id with a period) can be written: ${doc._id}`);
    const stored: SanityDocument = { ...doc, _createdAt: new Date().toISOString() };
    await mkdir(this.dataDir, { recursive: true });
    const file = path.join(this.dataDir, WRITES_FILE);
    const isNew = !existsSync(file);
    const handle = await open(file, 'a');
    try {
      await handle.write(JSON.stringify(stored) + '\n');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (isNew) await syncDirectory(this.dataDir);
    this.writes.set(stored._id, stored);
    this.views.clear();
    this.emit(new Set([stored._type]));
  }

  private emit(types: Set<string> | 'all') {
    for (const listener of this.listeners) {
      try {
        listener(types);
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
  }

  private async loadWrites(): Promise<void> {
    const file = path.join(this.dataDir, WRITES_FILE);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return;
    }
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const doc = JSON.parse(line) as SanityDocument;
        this.writes.set(doc._id, doc);
      } catch {
        // A torn last line from a crash mid-write: it was never acknowledged.
        this.log(`skipped an incomplete line in ${file}`);
      }
    }
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

  private async registerImage(file: string, assetDocs: Map<string, SanityDocument>, assets: Map<string, ImageAssetFile>) {
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
        metadata: { _type: 'sanity.imageMetadata', dimensions: { _type: 'sanity.imageDimensions', width, height, aspectRatio: width / (height || 1) }, hasAlpha: meta.hasAlpha ?? false },
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
        this.emit('all');
      } catch (error) {
        this.log(`could not reload the dataset: ${String(error)}`);
      }
    };
    stat(this.datasetFile).then((s) => (lastStamp = `${s.mtimeMs}:${s.size}`), () => {});
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
