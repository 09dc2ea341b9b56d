import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { MAX_SOURCE_PIXELS } from '~/lib/image-limits';
import { log as logger } from '~/lib/log.server';

/**
 * Resizing for the embedded world's image route, built so that nothing a visitor sends can
 * take the site down:
 *
 * - Output widths are limited to the widths the site's own srcsets ask for. A requested
 *   width (times dpr, which counts as 1 or 2) snaps up to the nearest allowed width, capped
 *   at the largest, and never above the source's own width.
 * - A height is kept only as an aspect ratio, snapped to the nearest ratio the site lays
 *   images out at; the output height follows from the snapped width. A height without a
 *   width is refused (400): the site never asks for one.
 * - Output formats are JPEG, WebP, and PNG for PNG sources. AVIF is not produced: on this
 *   site's hero photo an AVIF encode at 2048 px takes about 7.6 s of one core against 0.5 s
 *   for WebP and 0.4 s for JPEG, for half the bytes of WebP. The site's own URLs
 *   ask `auto=format`, answered in WebP, so AVIF would only serve whoever asks `fm=avif`,
 *   which is the cheapest way to burn CPU. `fm=avif` is answered like `auto=format`.
 *   `q` is accepted for the URL shape but not honoured: each format has one quality, which
 *   keeps the number of variants of an image small.
 * - Resizes run at most `slots` at a time (one core stays free for the event loop, and
 *   libuv's pool keeps a worker free for file reads), the rest wait in a FIFO queue of
 *   bounded length; past it the verdict is "busy" (the route answers 503 with Retry-After).
 *   They run in a separate process at a lower CPU priority (ResizeProcess), so pages come
 *   first whenever the cores are contended.
 * - Identical requests in flight share one resize (single-flight on the normalized key).
 * - Results are written to disk atomically (temp file, then rename), named by a hash of the
 *   normalized parameters and the source's content hash, and served from disk afterwards,
 *   also after a restart. Memory keeps only a small cache, bounded in bytes.
 */

/**
 * Layout widths of the site's images (SanityImage `width` in pages and components), each
 * requested at 0.5, 1, 1.5 and 2 times in the srcset (components/SanityImage.tsx), plus the
 * logos of the structured data (512 in the Organization, 600 as an article's publisher) and
 * the 1200×630 share image of articles and case studies. resize.server.test.ts reads the
 * site's source and fails when a width appears that is not here.
 */
export const LAYOUT_WIDTHS = [56, 180, 200, 480, 640, 720, 768, 1024] as const;
export const SRCSET_FACTORS = [0.5, 1, 1.5, 2] as const;
export const EXTRA_WIDTHS = [512, 600, 1200] as const;

export const ALLOWED_WIDTHS: readonly number[] = [
  ...new Set([...LAYOUT_WIDTHS.flatMap((w) => SRCSET_FACTORS.map((f) => Math.round(w * f))), ...EXTRA_WIDTHS]),
].sort((a, b) => a - b);
export const MAX_WIDTH = ALLOWED_WIDTHS[ALLOWED_WIDTHS.length - 1]!;

/** Width / height ratios the site lays images out at (SanityImage `aspect`, the 1200×630 share image). */
export const ALLOWED_ASPECTS: readonly number[] = [1, 3 / 2, 16 / 10, 16 / 9, 1200 / 630];

export type OutputFormat = 'jpeg' | 'webp' | 'png';
export const CONTENT_TYPES: Record<OutputFormat, string> = { jpeg: 'image/jpeg', webp: 'image/webp', png: 'image/png' };
const EXTENSIONS: Record<OutputFormat, string> = { jpeg: 'jpg', webp: 'webp', png: 'png' };

/** What the resize produces: exact output pixels (height only with a crop box), fit and format. */
export type ImageSpec = { width: number; height?: number; fit: 'cover' | 'inside'; format: OutputFormat };

/** A source image of the dataset: its file, a name holding its content hash, its size in pixels. */
export type SourceImage = { file: string; name: string; extension: string; width: number; height: number };

export type NormalizedRequest = { spec: ImageSpec; varyAccept: boolean };

/** The smallest allowed width at or above `width`; the largest allowed one beyond them all. */
export function snapWidth(width: number): number {
  for (const allowed of ALLOWED_WIDTHS) if (allowed >= width) return allowed;
  return MAX_WIDTH;
}

/** The allowed ratio nearest to `ratio` (compared as logarithms, so 2:1 and 1:2 are equally far from 1). */
export function snapAspect(ratio: number): number {
  let best = ALLOWED_ASPECTS[0]!;
  for (const aspect of ALLOWED_ASPECTS)
    if (Math.abs(Math.log(aspect / ratio)) < Math.abs(Math.log(best / ratio))) best = aspect;
  return best;
}

/**
 * The output format: `fm` when it names one we produce (jpg, jpeg, webp; png for PNG sources
 * only: a photo in PNG is ten times the bytes of its JPEG for nothing, and the largest file a
 * visitor could make us keep); otherwise, with `auto=format` or `fm=avif`, WebP when the
 * browser accepts it; else PNG for PNG sources and JPEG for the rest. `varyAccept` says
 * whether the Accept header decided.
 */
export function chooseFormat(input: {
  fm: string | null;
  auto: string | null;
  accept: string;
  sourceExtension: string;
}): { format: OutputFormat; varyAccept: boolean } {
  const fm = input.fm?.toLowerCase() ?? null;
  const fallback: OutputFormat = input.sourceExtension === 'png' ? 'png' : 'jpeg';
  if (fm === 'jpg' || fm === 'jpeg' || fm === 'pjpg') return { format: 'jpeg', varyAccept: false };
  if (fm === 'webp') return { format: 'webp', varyAccept: false };
  if (fm === 'png') return { format: fallback, varyAccept: false };
  if (input.auto === 'format' || fm === 'avif') {
    return { format: /\bimage\/webp\b/i.test(input.accept) ? 'webp' : fallback, varyAccept: true };
  }
  return { format: fallback, varyAccept: false };
}

/** A URL parameter as a plain number (undefined when absent, null when not one). */
export const number = (value: string | null): number | undefined | null => {
  if (value == null || value === '') return undefined;
  return /^\d{1,7}(\.\d{1,4})?$/.test(value) ? Number(value) : null;
};

/**
 * Reads the URL parameters (w, h, dpr, fit, fm, auto; q is ignored) into one of the few
 * variants we produce, or a 400 message.
 */
export function normalizeRequest(
  source: Pick<SourceImage, 'width' | 'height' | 'extension'>,
  query: URLSearchParams,
  accept: string,
): NormalizedRequest | { status: 400; message: string } {
  const w = number(query.get('w'));
  const h = number(query.get('h'));
  const dprValue = number(query.get('dpr'));
  if (w === null || h === null || dprValue === null) return { status: 400, message: 'w, h and dpr must be numbers' };
  if (h !== undefined && w === undefined) return { status: 400, message: 'h needs w' };
  if (h !== undefined && h <= 0) return { status: 400, message: 'h must be positive' };
  const dpr = dprValue !== undefined && dprValue > 1 ? 2 : 1;
  const { format, varyAccept } = chooseFormat({
    fm: query.get('fm'),
    auto: query.get('auto'),
    accept,
    sourceExtension: source.extension,
  });
  const fitParam = query.get('fit');
  const sourceWidth = Math.max(1, source.width);
  const sourceHeight = Math.max(1, source.height);

  if (w === undefined) return { spec: { width: Math.min(sourceWidth, MAX_WIDTH), fit: 'inside', format }, varyAccept };
  const wanted = snapWidth(Math.max(1, w) * dpr);
  if (h === undefined) return { spec: { width: Math.min(wanted, sourceWidth), fit: 'inside', format }, varyAccept };

  const aspect = snapAspect(Math.max(1, w) / h);
  // The crop box, shrunk (keeping its ratio) until it fits inside the source: never enlarged.
  const width = Math.max(1, Math.min(wanted, sourceWidth, Math.floor(sourceHeight * aspect)));
  const height = Math.max(1, Math.round(width / aspect));
  return {
    spec: { width, height, fit: fitParam === 'crop' || fitParam === 'min' ? 'cover' : 'inside', format },
    varyAccept,
  };
}

export type ResizeFunction = (file: string, spec: ImageSpec) => Promise<Buffer>;

/**
 * The one place the output is made (its settings are part of the cache key's `v`). Self-contained,
 * for its source is also what the resize process runs (see ResizeProcess).
 */
function encode(sharp: typeof import('sharp'), file: string, spec: ImageSpec, maxPixels: number): Promise<Buffer> {
  const pipeline = sharp(file, { limitInputPixels: maxPixels })
    .rotate()
    .resize({ width: spec.width, height: spec.height, fit: spec.fit, withoutEnlargement: true });
  const encoded =
    spec.format === 'webp'
      ? pipeline.webp({ quality: 80 })
      : spec.format === 'png'
        ? pipeline.png({ compressionLevel: 8 })
        : pipeline.jpeg({ quality: 80, mozjpeg: true });
  return encoded.toBuffer();
}

let sharpConfigured = false;
/** In this process: sharp with one libvips thread per image and no cache of its own, so a resize uses one core at most. */
export const sharpResize: ResizeFunction = async (file, spec) => {
  const sharp = (await import('sharp')).default;
  if (!sharpConfigured) {
    sharp.concurrency(1);
    sharp.cache(false);
    sharpConfigured = true;
  }
  return encode(sharp, file, spec, MAX_SOURCE_PIXELS);
};

/** The resize process's program: sharp as above, one job per message, answers by id. */
const CHILD_PROGRAM = `
import { pathToFileURL } from 'node:url';
const sharp = (await import(pathToFileURL(process.argv[1]).href)).default;
sharp.concurrency(1);
sharp.cache(false);
const encode = ${encode.toString()};
process.on('message', async ({ id, file, spec }) => {
  try {
    process.send({ id, body: await encode(sharp, file, spec, ${MAX_SOURCE_PIXELS}) });
  } catch (error) {
    process.send({ id, error: String(error && error.message ? error.message : error) });
  }
});
process.on('disconnect', () => process.exit(0));
`;

/**
 * Resizes in a separate Node process at a lower CPU priority (nice 10 by default; its libvips
 * threads inherit it). When the machine's cores are contended, the server's own thread (pages)
 * runs first and resizes get what is left; the server's memory holds no decoded images; a crash
 * of libvips costs the resizes in flight, not the site. The process starts on the first resize,
 * again after it exits, and is killed when a resize takes longer than `timeoutMs` (its slot is
 * then freed by the caller).
 */
export class ResizeProcess {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<
    number,
    { resolve: (body: Buffer) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  private nextId = 1;
  constructor(private readonly options: { nice?: number; timeoutMs?: number; log?: (message: string) => void } = {}) {}

  readonly resize: ResizeFunction = (file, spec) =>
    new Promise<Buffer>((resolve, reject) => {
      const child = this.start();
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.options.log?.(
          `[images] resize of ${path.basename(file)} took over ${this.options.timeoutMs ?? 60_000} ms: restarting the resize process`,
        );
        child.kill('SIGKILL');
      }, this.options.timeoutMs ?? 60_000);
      this.pending.set(id, { resolve, reject, timer });
      child.send({ id, file, spec });
    });

  /** The process's id, while it runs. */
  get pid() {
    return this.child?.pid;
  }

  close() {
    this.child?.kill('SIGTERM');
  }

  private start(): ChildProcess {
    if (this.child) return this.child;
    const sharpPath = createRequire(import.meta.url).resolve('sharp');
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD_PROGRAM, sharpPath], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    this.child = child;
    try {
      if (child.pid) os.setPriority(child.pid, this.options.nice ?? 10);
    } catch (error) {
      this.options.log?.(`[images] cannot lower the resize process's priority: ${(error as Error).message}`);
    }
    child.on('message', (message: { id: number; body?: Uint8Array; error?: string }) => {
      const job = this.pending.get(message.id);
      if (!job) return;
      this.pending.delete(message.id);
      clearTimeout(job.timer);
      if (message.body) job.resolve(Buffer.from(message.body.buffer, message.body.byteOffset, message.body.byteLength));
      else job.reject(new Error(message.error ?? 'resize failed'));
    });
    const gone = (why: string) => {
      if (this.child !== child) return;
      this.child = undefined;
      for (const [id, job] of this.pending) {
        this.pending.delete(id);
        clearTimeout(job.timer);
        job.reject(new Error(`the resize process ${why}`));
      }
    };
    child.on('exit', (code, signal) => gone(`exited (${signal ?? code})`));
    child.on('error', (error) => gone(`failed: ${error.message}`));
    // The server may exit with the process still there: it follows on 'disconnect'.
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    return child;
  }
}

export type Verdict =
  | { kind: 'ok'; body: Buffer; contentType: string; from: 'memory' | 'disk' | 'resize' }
  | { kind: 'busy'; retryAfterSeconds: number };

export type ResizerStats = { resizes: number; diskHits: number; memoryHits: number; shared: number; busy: number };

export type ResizerOptions = {
  /** Where results are kept: `{dataDir}/image-cache`. */
  cacheDir: string;
  resize?: ResizeFunction;
  /** Resizes at once (default: cores − 1, at most libuv's pool − 1, at least 1). */
  slots?: number;
  /** Resizes that may wait for a slot (default: 8 per slot); beyond it: busy. */
  queueLimit?: number;
  /** Bytes of results kept in memory (default 32 MB). */
  memoryBytes?: number;
  log?: (message: string) => void;
};

export function defaultSlots(): number {
  const pool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  return Math.max(1, Math.min(os.availableParallelism() - 1, pool - 1));
}

/** A least-recently-used map bounded by the total size of its values. */
class ByteLru {
  private entries = new Map<string, { body: Buffer; contentType: string }>();
  private bytes = 0;
  constructor(private readonly limit: number) {}
  get(key: string) {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }
  set(key: string, value: { body: Buffer; contentType: string }) {
    // One entry may use a quarter of the budget at most, so a few large images cannot flush the rest.
    if (value.body.length > this.limit / 4) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.body.length;
      this.entries.delete(key);
    }
    this.entries.set(key, value);
    this.bytes += value.body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.limit) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.length;
    }
  }
  get size() {
    return this.bytes;
  }
}

export class ImageResizer {
  readonly slots: number;
  readonly queueLimit: number;
  readonly stats: ResizerStats = { resizes: 0, diskHits: 0, memoryHits: 0, shared: 0, busy: 0 };
  private readonly cacheDir: string;
  private readonly resize: ResizeFunction;
  private readonly memory: ByteLru;
  private readonly log: (message: string) => void;
  private readonly inFlight = new Map<string, Promise<Verdict>>();
  private readonly waiting: Array<() => void> = [];
  private active = 0;
  private averageMs = 500;

  constructor(options: ResizerOptions) {
    this.cacheDir = path.resolve(options.cacheDir);
    this.resize = options.resize ?? sharpResize;
    this.slots = Math.max(1, Math.floor(options.slots ?? defaultSlots()));
    this.queueLimit = Math.max(0, Math.floor(options.queueLimit ?? 8 * this.slots));
    this.memory = new ByteLru(options.memoryBytes ?? 32 * 1024 * 1024);
    this.log = options.log ?? ((message) => logger.info(message));
  }

  /** The cache key: a hash of the source's content name and the normalized output (bump `v` when the encoders' settings change). */
  static key(source: Pick<SourceImage, 'name'>, spec: ImageSpec): string {
    const normalized = JSON.stringify({
      v: 1,
      source: source.name,
      w: spec.width,
      h: spec.height ?? null,
      fit: spec.height ? spec.fit : 'inside',
      fm: spec.format,
    });
    return createHash('sha256').update(normalized).digest('hex');
  }

  /** Where a result lives on disk. */
  filePath(key: string, format: OutputFormat): string {
    return path.join(this.cacheDir, key.slice(0, 2), `${key}.${EXTENSIONS[format]}`);
  }

  /** Resizes waiting for a slot, and running. */
  get load() {
    return { active: this.active, queued: this.waiting.length };
  }

  get memoryBytes() {
    return this.memory.size;
  }

  /**
   * The variant: from memory, shared with the same resize in flight, from disk, or resized.
   * `queueLimit` (at most the resizer's own) lets a caller wait in a shorter queue than the
   * site's pages, so that it can never fill the rest (the local Content Lake: app/lake/images.server.ts).
   */
  async get(source: SourceImage, spec: ImageSpec, options: { queueLimit?: number } = {}): Promise<Verdict> {
    const key = ImageResizer.key(source, spec);
    const remembered = this.memory.get(key);
    if (remembered) {
      this.stats.memoryHits++;
      return { kind: 'ok', ...remembered, from: 'memory' };
    }
    const running = this.inFlight.get(key);
    if (running) {
      this.stats.shared++;
      return running;
    }
    const limit = Math.min(this.queueLimit, options.queueLimit ?? this.queueLimit);
    const flight = this.produce(key, source, spec, limit).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, flight);
    return flight;
  }

  private async produce(key: string, source: SourceImage, spec: ImageSpec, queueLimit: number): Promise<Verdict> {
    const contentType = CONTENT_TYPES[spec.format];
    const file = this.filePath(key, spec.format);
    try {
      const body = await readFile(file);
      this.stats.diskHits++;
      this.memory.set(key, { body, contentType });
      return { kind: 'ok', body, contentType, from: 'disk' };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.log(`[images] cannot read ${file}: ${(error as Error).message}`);
    }
    if (!(await this.acquire(queueLimit))) {
      this.stats.busy++;
      return { kind: 'busy', retryAfterSeconds: this.retryAfter() };
    }
    let body: Buffer;
    const started = performance.now();
    try {
      this.stats.resizes++;
      body = await this.resize(source.file, spec);
    } finally {
      this.release();
    }
    const ms = performance.now() - started;
    this.averageMs = this.averageMs * 0.8 + ms * 0.2;
    this.log(
      `[images] resized ${source.name} to ${spec.width}x${spec.height ?? 'auto'} ${spec.format} in ${Math.round(ms)} ms`,
    );
    this.memory.set(key, { body, contentType });
    await this.store(file, body);
    return { kind: 'ok', body, contentType, from: 'resize' };
  }

  /** Writes aside, then renames into place: a reader sees the whole file or none. A failure only costs the cache. */
  private async store(file: string, body: Buffer) {
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(temp, body);
      await rename(temp, file);
    } catch (error) {
      this.log(`[images] cannot cache ${file}: ${(error as Error).message}`);
      await unlink(temp).catch(() => {});
    }
  }

  /** A slot now, a place in the FIFO queue, or false when the queue is full. */
  private acquire(queueLimit: number): Promise<boolean> | boolean {
    if (this.active < this.slots) {
      this.active++;
      return true;
    }
    if (this.waiting.length >= queueLimit) return false;
    // The slot passes straight from release() to the first waiter: `active` stays counted.
    return new Promise<boolean>((resolve) => this.waiting.push(() => resolve(true)));
  }

  private release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  /** Seconds until the queue has likely drained, from the recent time per resize. */
  private retryAfter(): number {
    const seconds = Math.ceil(((this.waiting.length + this.active) * this.averageMs) / this.slots / 1000);
    return Math.min(30, Math.max(1, seconds));
  }
}

let shared: ImageResizer | undefined;
/** The server's one resizer, caching under `{dataDir}/image-cache`, resizing in a process of lower priority. */
export function imageResizer(dataDir: string): ImageResizer {
  if (!shared) {
    const log = (message: string) => logger.info(message);
    shared = new ImageResizer({
      cacheDir: path.join(dataDir, 'image-cache'),
      resize: new ResizeProcess({ log }).resize,
      log,
    });
  }
  return shared;
}
