import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import sharp from 'sharp';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IMAGE_LAYOUTS, type ImageLayout } from '~/components/image-layouts';
import { imageUrlBuilder } from '~/lib/image';
import {
  ALLOWED_ASPECTS,
  ALLOWED_WIDTHS,
  ImageResizer,
  MAX_WIDTH,
  normalizeRequest,
  ResizeProcess,
  snapAspect,
  snapWidth,
  SRCSET_FACTORS,
  type ImageSpec,
  type NormalizedRequest,
  type ResizeFunction,
  type SourceImage,
  type Verdict,
} from './resize.server';

const HERO = { width: 3200, height: 2000, extension: 'jpg' };
const PHOTO = { width: 1600, height: 900, extension: 'jpg' };
const LOGO = { width: 720, height: 192, extension: 'png' };
const WEBP = 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8';

const ask = (source: typeof HERO, query: string, accept = WEBP) =>
  normalizeRequest(source, new URLSearchParams(query), accept);
const ok = (result: ReturnType<typeof normalizeRequest>): NormalizedRequest => {
  if ('status' in result) throw new Error(`expected a variant, got 400: ${result.message}`);
  return result;
};

// ---------------------------------------------------------------------------------------------
// The site's own image URLs, read from its source: every width a page or its structured data
// asks for must be one we produce, at exactly the size asked.

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}
const numbersIn = (expression: string) => [...expression.matchAll(/\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
const ratioOf = (expression: string) => {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(expression) ?? /^\s*(\d+)\s*$/.exec(expression);
  if (!m) throw new Error(`cannot read the aspect ${expression}`);
  return m[2] ? Number(m[1]) / Number(m[2]) : Number(m[1]);
};

/**
 * Every layout a `<SanityImage …>` in app/ can ask for: the named layouts of image-layouts.ts (all
 * of them, used or not), and each image's own `width={…} aspect={…}` where it gives them; plus
 * every fixed-size URL built with imageUrlBuilder.
 */
function siteImageUses() {
  const layouts: { file: string; width: number; aspect?: number }[] = Object.entries(IMAGE_LAYOUTS).map(
    ([name, layout]: [string, ImageLayout]) => ({ file: `image-layouts.ts: ${name}`, ...layout }),
  );
  const fixed: { file: string; width: number; height?: number }[] = [];
  for (const file of sourceFiles(path.resolve('app'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/<SanityImage\b([\s\S]*?)\/>/g)) {
      const props = m[1]!;
      const width = /\bwidth=\{([^}]*)\}/.exec(props);
      if (!width) {
        // A named layout: the table is checked whole above (and TypeScript checks the name).
        if (!/\blayout=/.test(props)) throw new Error(`${file}: a SanityImage without a width or a layout`);
        continue;
      }
      const aspect = /\baspect=\{([^}]*)\}/.exec(props);
      for (const w of numbersIn(width[1]!))
        layouts.push({ file, width: w, aspect: aspect ? ratioOf(aspect[1]!) : undefined });
    }
    if (
      /imageUrlBuilder/.test(text) &&
      !file.endsWith(path.join('components', 'SanityImage.tsx')) &&
      !file.endsWith(path.join('lib', 'image.ts'))
    ) {
      // Calls like `image(post.coverImage, 1200, 630)` or `imageUrlBuilder(x)(settings.logo, 512)`.
      for (const m of text.matchAll(/\(\s*[\w.]+\s*,\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)/g))
        fixed.push({ file, width: Number(m[1]), height: m[2] ? Number(m[2]) : undefined });
    }
  }
  return { layouts, fixed };
}

describe("the site's own image URLs", () => {
  const { layouts, fixed } = siteImageUses();
  const url = imageUrlBuilder({ projectId: 'embedded', dataset: 'production', world: 'embedded' });
  const image = {
    asset: { _id: 'image-0123456789abcdef0123456789abcdef01234567-3200x2000-jpg', width: 3200, height: 2000 },
  } as never;

  it('are found in the source (the scan itself works)', () => {
    expect(layouts.length).toBeGreaterThanOrEqual(10);
    expect(layouts.map((l) => l.width)).toEqual(expect.arrayContaining([56, 200, 480, 720, 1024]));
    expect(fixed.map((f) => `${f.width}x${f.height ?? ''}`)).toEqual(
      expect.arrayContaining(['512x', '600x', '1200x630']),
    );
  });

  it('ask only for allowed widths and aspect ratios', () => {
    for (const { file, width, aspect } of layouts) {
      for (const factor of SRCSET_FACTORS)
        expect(ALLOWED_WIDTHS, `${file}: ${width} × ${factor}`).toContain(Math.round(width * factor));
      if (aspect) expect(ALLOWED_ASPECTS, file).toContain(aspect);
    }
    for (const { file, width, height } of fixed) {
      expect(ALLOWED_WIDTHS, file).toContain(width);
      if (height)
        expect(
          ALLOWED_ASPECTS.some((a) => Math.abs(a - width / height) < 1e-9),
          file,
        ).toBe(true);
    }
  });

  it('are produced at exactly the size they ask for (as SanityImage builds them)', () => {
    const urls = [
      ...layouts.flatMap(({ width, aspect }) =>
        SRCSET_FACTORS.map((f) => Math.round(width * f)).map((w) =>
          url(image, w, aspect ? Math.round(w / aspect) : undefined),
        ),
      ),
      ...fixed.map(({ width, height }) => url(image, width, height)),
    ];
    for (const u of urls) {
      const query = new URL(u, 'http://x').searchParams;
      const { spec, varyAccept } = ok(normalizeRequest(HERO, query, WEBP));
      expect(spec.width, u).toBe(Number(query.get('w')));
      expect(spec.height, u).toBe(query.has('h') ? Number(query.get('h')) : undefined);
      if (query.has('h')) expect(spec.fit, u).toBe('cover');
      expect(spec.format, u).toBe('webp');
      expect(varyAccept).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('snapping', () => {
  it('snaps a width up to the next allowed one, capped at the largest', () => {
    expect(snapWidth(1)).toBe(ALLOWED_WIDTHS[0]);
    expect(snapWidth(56)).toBe(56);
    expect(snapWidth(57)).toBe(84);
    expect(snapWidth(1000)).toBe(1024);
    expect(snapWidth(2048)).toBe(2048);
    expect(snapWidth(4000)).toBe(MAX_WIDTH);
    expect(MAX_WIDTH).toBe(2048);
    for (const w of ALLOWED_WIDTHS) expect(snapWidth(w)).toBe(w);
  });

  it('snaps a ratio to the nearest one the site lays out at', () => {
    expect(snapAspect(1)).toBe(1);
    expect(snapAspect(1.77)).toBe(16 / 9);
    expect(snapAspect(1.9)).toBe(1200 / 630);
    expect(snapAspect(1.52)).toBe(3 / 2);
    expect(snapAspect(1.62)).toBe(16 / 10);
    expect(snapAspect(0.01)).toBe(1);
    expect(snapAspect(1000)).toBe(1200 / 630);
  });
});

describe('normalizeRequest', () => {
  it('refuses what the site never asks with a 400', () => {
    for (const query of ['w=abc', 'w=-5', 'w=1e3', 'w=99999999', 'h=300', 'w=300&h=0', 'w=300&h=x', 'w=300&dpr=two']) {
      expect(ask(HERO, query), query).toMatchObject({ status: 400 });
    }
  });

  it('counts dpr as 1 or 2', () => {
    expect(ok(ask(HERO, 'w=512&dpr=2')).spec.width).toBe(1024);
    expect(ok(ask(HERO, 'w=512&dpr=1.5')).spec.width).toBe(1024);
    expect(ok(ask(HERO, 'w=512&dpr=3')).spec.width).toBe(1024);
    expect(ok(ask(HERO, 'w=512&dpr=1')).spec.width).toBe(512);
    expect(ok(ask(HERO, 'w=512&dpr=0.5')).spec.width).toBe(512);
  });

  it('caps a huge width at the largest allowed one and at the source width', () => {
    expect(ok(ask(HERO, 'w=4000&fm=avif')).spec).toEqual({ width: 2048, fit: 'inside', format: 'webp' });
    expect(ok(ask(HERO, 'w=9999999&dpr=2')).spec.width).toBe(2048);
    expect(ok(ask(PHOTO, 'w=4000')).spec.width).toBe(1600);
    expect(ok(ask(HERO, '')).spec).toEqual({ width: 2048, fit: 'inside', format: 'jpeg' });
    expect(ok(ask(LOGO, '')).spec).toEqual({ width: 720, fit: 'inside', format: 'png' });
  });

  it('keeps a height only as a snapped ratio, never enlarging the crop box', () => {
    expect(ok(ask(HERO, 'w=4000&h=1&fit=crop')).spec).toEqual({
      width: 2048,
      height: 1075,
      fit: 'cover',
      format: 'jpeg',
    });
    expect(ok(ask(HERO, 'w=700&h=468&fit=crop&auto=format')).spec).toEqual({
      width: 720,
      height: 480,
      fit: 'cover',
      format: 'webp',
    });
    // 3:2 at 1440 px from a 1600×900 source: the largest 3:2 box inside it.
    expect(ok(ask(PHOTO, 'w=1440&h=960&fit=crop')).spec).toMatchObject({ width: 1350, height: 900 });
    expect(ok(ask(HERO, 'w=720&h=480')).spec.fit).toBe('inside');
  });

  it('never produces AVIF: fm=avif is answered as auto=format, with Vary: Accept', () => {
    expect(ok(ask(HERO, 'w=720&fm=avif', WEBP))).toEqual({
      spec: { width: 720, fit: 'inside', format: 'webp' },
      varyAccept: true,
    });
    expect(ok(ask(HERO, 'w=720&fm=avif', 'image/avif,image/*'))).toEqual({
      spec: { width: 720, fit: 'inside', format: 'jpeg' },
      varyAccept: true,
    });
    expect(ok(ask(LOGO, 'w=200&fm=avif', 'image/avif'))).toMatchObject({ spec: { format: 'png' }, varyAccept: true });
  });

  it('chooses the format from fm, auto=format and Accept; Vary only when Accept decided', () => {
    expect(ok(ask(HERO, 'w=720&auto=format', WEBP))).toMatchObject({ spec: { format: 'webp' }, varyAccept: true });
    expect(ok(ask(HERO, 'w=720&auto=format', ''))).toMatchObject({ spec: { format: 'jpeg' }, varyAccept: true });
    expect(ok(ask(HERO, 'w=720&fm=jpg', WEBP))).toMatchObject({ spec: { format: 'jpeg' }, varyAccept: false });
    expect(ok(ask(HERO, 'w=720&fm=webp', ''))).toMatchObject({ spec: { format: 'webp' }, varyAccept: false });
    expect(ok(ask(HERO, 'w=720', WEBP))).toMatchObject({ spec: { format: 'jpeg' }, varyAccept: false });
    // PNG only for PNG sources.
    expect(ok(ask(HERO, 'w=720&fm=png'))).toMatchObject({ spec: { format: 'jpeg' }, varyAccept: false });
    expect(ok(ask(LOGO, 'w=200&fm=png'))).toMatchObject({ spec: { format: 'png' }, varyAccept: false });
    expect(ok(ask(HERO, 'w=720&fm=gif', WEBP))).toMatchObject({ spec: { format: 'jpeg' }, varyAccept: false });
  });

  it('makes the same variant of different spellings (q is ignored)', () => {
    const a = ok(ask(HERO, 'w=700&q=10&auto=format')).spec;
    const b = ok(ask(HERO, 'w=720&q=95&fm=avif')).spec;
    expect(ImageResizer.key({ name: 'x.jpg' }, a)).toBe(ImageResizer.key({ name: 'x.jpg' }, b));
  });
});

// ---------------------------------------------------------------------------------------------
// The resizer, with a fake resize function that the test finishes by hand.

type Call = { file: string; spec: ImageSpec; finish: (body?: Buffer) => void; fail: (error: Error) => void };

function fakeResize() {
  const calls: Call[] = [];
  const resize: ResizeFunction = (file, spec) =>
    new Promise<Buffer>((resolve, reject) => {
      calls.push({ file, spec, finish: (body) => resolve(body ?? Buffer.from(`${file}@${spec.width}`)), fail: reject });
    });
  return { calls, resize };
}

/** Lets pending promise callbacks and file operations run. */
const settle = async (until: () => boolean = () => false) => {
  for (let i = 0; i < 200 && !until(); i++) await new Promise((r) => setTimeout(r, 2));
};

const source = (name: string): SourceImage => ({
  file: `/src/${name}`,
  name,
  extension: 'jpg',
  width: 3200,
  height: 2000,
});
const spec = (width: number): ImageSpec => ({ width, fit: 'inside', format: 'webp' });

describe('ImageResizer', () => {
  const dirs: string[] = [];
  const cacheDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'image-cache-test-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('resizes once for N identical requests in flight (single-flight)', async () => {
    const fake = fakeResize();
    const resizer = new ImageResizer({
      cacheDir: await cacheDir(),
      resize: fake.resize,
      slots: 1,
      queueLimit: 0,
      log: () => {},
    });
    const answers = Promise.all(Array.from({ length: 25 }, () => resizer.get(source('hero.jpg'), spec(2048))));
    await settle(() => fake.calls.length > 0);
    expect(fake.calls).toHaveLength(1);
    fake.calls[0]!.finish();
    const verdicts = await answers;
    expect(verdicts.every((v) => v.kind === 'ok' && v.body.toString() === '/src/hero.jpg@2048')).toBe(true);
    expect(resizer.stats).toMatchObject({ resizes: 1, shared: 24, busy: 0 });
    // Afterwards: from memory, no new resize.
    expect(await resizer.get(source('hero.jpg'), spec(2048))).toMatchObject({ kind: 'ok', from: 'memory' });
    expect(fake.calls).toHaveLength(1);
  });

  it('runs at most `slots` resizes, queues the next in FIFO order, and answers busy past the queue', async () => {
    const fake = fakeResize();
    const resizer = new ImageResizer({
      cacheDir: await cacheDir(),
      resize: fake.resize,
      slots: 2,
      queueLimit: 3,
      log: () => {},
    });
    // One at a time: each first looks on disk, and those looks may finish in any order.
    const pending: Promise<Verdict>[] = [];
    for (const w of [100, 200, 300, 400, 480, 512]) {
      const seen = resizer.load.active + resizer.load.queued + resizer.stats.busy;
      pending.push(resizer.get(source('a.jpg'), spec(w)));
      await settle(() => resizer.load.active + resizer.load.queued + resizer.stats.busy > seen);
    }
    expect(resizer.load).toEqual({ active: 2, queued: 3 });
    expect(fake.calls.map((c) => c.spec.width)).toEqual([100, 200]);
    // The sixth found the queue full.
    const sixth = await pending[5]!;
    expect(sixth.kind).toBe('busy');
    if (sixth.kind === 'busy') expect(sixth.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(resizer.stats.busy).toBe(1);
    // Finishing the second frees a slot for the first in the queue, and so on, in order.
    fake.calls[1]!.finish();
    await settle(() => fake.calls.length === 3);
    fake.calls[0]!.finish();
    await settle(() => fake.calls.length === 4);
    fake.calls[2]!.finish();
    await settle(() => fake.calls.length === 5);
    expect(fake.calls.map((c) => c.spec.width)).toEqual([100, 200, 300, 400, 480]);
    fake.calls[3]!.finish();
    fake.calls[4]!.finish();
    const verdicts = await Promise.all(pending.slice(0, 5));
    expect(verdicts.map((v) => v.kind)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(resizer.load).toEqual({ active: 0, queued: 0 });
    // Once the queue has room, the refused one is made.
    const retry = resizer.get(source('a.jpg'), spec(512));
    await settle(() => fake.calls.length === 6);
    fake.calls[5]!.finish();
    expect(await retry).toMatchObject({ kind: 'ok', from: 'resize' });
  });

  it('answers a cached variant even while the queue is full', async () => {
    const fake = fakeResize();
    const resizer = new ImageResizer({
      cacheDir: await cacheDir(),
      resize: fake.resize,
      slots: 1,
      queueLimit: 0,
      log: () => {},
    });
    const first = resizer.get(source('a.jpg'), spec(720));
    await settle(() => fake.calls.length === 1);
    fake.calls[0]!.finish();
    await first;
    const blocking = resizer.get(source('a.jpg'), spec(1024));
    await settle(() => fake.calls.length === 2);
    expect(await resizer.get(source('a.jpg'), spec(1440))).toMatchObject({ kind: 'busy' });
    expect(await resizer.get(source('a.jpg'), spec(720))).toMatchObject({ kind: 'ok', from: 'memory' });
    fake.calls[1]!.finish();
    await blocking;
  });

  it('keeps results on disk, atomically, for a new instance (a restart)', async () => {
    const dir = await cacheDir();
    const fake = fakeResize();
    const before = new ImageResizer({ cacheDir: dir, resize: fake.resize, slots: 1, log: () => {} });
    const pending = before.get(source('hero.jpg'), spec(1440));
    await settle(() => fake.calls.length === 1);
    fake.calls[0]!.finish(Buffer.from('resized bytes'));
    await pending;
    const key = ImageResizer.key(source('hero.jpg'), spec(1440));
    const file = before.filePath(key, 'webp');
    expect(readFileSync(file, 'utf8')).toBe('resized bytes');
    expect((await readdir(path.dirname(file))).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    const noResize: ResizeFunction = () => Promise.reject(new Error('must not resize'));
    const after = new ImageResizer({ cacheDir: dir, resize: noResize, slots: 1, log: () => {} });
    const verdict = await after.get(source('hero.jpg'), spec(1440));
    expect(verdict).toMatchObject({ kind: 'ok', from: 'disk', contentType: 'image/webp' });
    if (verdict.kind === 'ok') expect(verdict.body.toString()).toBe('resized bytes');
    expect(after.stats).toMatchObject({ resizes: 0, diskHits: 1 });
    // A different source (new content hash) is another file.
    expect(existsSync(after.filePath(ImageResizer.key(source('other.jpg'), spec(1440)), 'webp'))).toBe(false);
  });

  it('releases the slot of a failed resize, to the next in the queue and to later requests', async () => {
    const fake = fakeResize();
    const resizer = new ImageResizer({
      cacheDir: await cacheDir(),
      resize: fake.resize,
      slots: 1,
      queueLimit: 1,
      log: () => {},
    });
    const failing = resizer.get(source('broken.jpg'), spec(720));
    await settle(() => fake.calls.length === 1);
    const queued = resizer.get(source('a.jpg'), spec(720));
    await settle(() => resizer.load.queued === 1);
    fake.calls[0]!.fail(new Error('corrupt input'));
    await expect(failing).rejects.toThrow('corrupt input');
    await settle(() => fake.calls.length === 2);
    fake.calls[1]!.finish();
    expect(await queued).toMatchObject({ kind: 'ok' });
    expect(resizer.load).toEqual({ active: 0, queued: 0 });
    // Nothing of the failure is kept: asking again resizes again.
    const again = resizer.get(source('broken.jpg'), spec(720));
    await settle(() => fake.calls.length === 3);
    fake.calls[2]!.finish();
    expect(await again).toMatchObject({ kind: 'ok', from: 'resize' });
  });

  it('bounds the memory cache in bytes, dropping the least recently used first', async () => {
    const resize: ResizeFunction = async (_file, s) => Buffer.alloc(s.width === 999 ? 300 : 200, s.width % 256);
    const resizer = new ImageResizer({
      cacheDir: await cacheDir(),
      resize,
      slots: 1,
      memoryBytes: 1000,
      log: () => {},
    });
    for (const w of [1, 2, 3, 4, 5]) await resizer.get(source('a.jpg'), spec(w));
    expect(resizer.memoryBytes).toBe(1000);
    await resizer.get(source('a.jpg'), spec(1)); // now the most recently used
    await resizer.get(source('a.jpg'), spec(6));
    expect(resizer.memoryBytes).toBeLessThanOrEqual(1000);
    expect(await resizer.get(source('a.jpg'), spec(1))).toMatchObject({ from: 'memory' });
    expect(await resizer.get(source('a.jpg'), spec(2))).toMatchObject({ from: 'disk' });
    // One entry may take a quarter of the budget at most: a larger one is served from disk.
    await resizer.get(source('a.jpg'), spec(999));
    expect(await resizer.get(source('a.jpg'), spec(999))).toMatchObject({ from: 'disk' });
    expect(resizer.memoryBytes).toBeLessThanOrEqual(1000);
  });
});

describe('ResizeProcess (real sharp, in a process of lower priority)', () => {
  const hero = path.resolve('studio/dataset/images/home-hero.jpg');
  const logo = path.resolve('studio/dataset/images/logo.png');

  it('resizes and encodes in a niced process, and starts again after it dies', async () => {
    const worker = new ResizeProcess({ log: () => {} });
    try {
      const body = await worker.resize(hero, { width: 360, height: 240, fit: 'cover', format: 'webp' });
      expect(await sharp(body).metadata()).toMatchObject({ format: 'webp', width: 360, height: 240 });
      const pid = worker.pid!;
      expect(os.getPriority(pid)).toBe(10);
      const png = await worker.resize(logo, { width: 200, fit: 'inside', format: 'png' });
      expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 200 });

      // Killed mid-resize: the job fails (the caller frees its slot), the next one gets a new process.
      const doomed = worker.resize(hero, { width: 2048, fit: 'inside', format: 'webp' });
      process.kill(pid, 'SIGKILL');
      await expect(doomed).rejects.toThrow(/resize process exited/);
      const jpeg = await worker.resize(hero, { width: 480, fit: 'inside', format: 'jpeg' });
      expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 480, height: 300 });
      expect(worker.pid).not.toBe(pid);
    } finally {
      worker.close();
    }
  });

  it('reports a bad input as a failed resize, and gives up on one that takes too long', async () => {
    const worker = new ResizeProcess({ log: () => {}, timeoutMs: 1 });
    try {
      await expect(worker.resize(hero, { width: 2048, fit: 'inside', format: 'webp' })).rejects.toThrow(
        /resize process exited/,
      );
    } finally {
      worker.close();
    }
    const patient = new ResizeProcess({ log: () => {} });
    try {
      await expect(
        patient.resize(path.resolve('package.json'), { width: 100, fit: 'inside', format: 'jpeg' }),
      ).rejects.toThrow(/unsupported image format/i);
      expect(await patient.resize(hero, { width: 100, fit: 'inside', format: 'jpeg' })).toBeInstanceOf(Buffer);
    } finally {
      patient.close();
    }
  });
});
