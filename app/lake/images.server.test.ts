import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '~/db/test-support';
import type { Database } from '~/db/types.server';
import { ImageResizer, sharpResize, type ImageSpec, type ResizeFunction } from '~/features/images/resize.server';
import type { ImageAssetFile } from '~/sanity/embedded.server';
import { createLakeHandler } from './api.server';
import { LAKE_MAX_WIDTH, LAKE_WIDTHS, normalizeLakeRequest } from './images.server';
import { pngClaiming } from './images.test-support';
import { LakeStore } from './store.server';

/**
 * The lake's image URLs are public (as Sanity's CDN is) and reach loopback from any local process
 * or any page an editor opens: each must map to one of a few variants, made by the site's resizer
 * (its queue answers 503 past its length, its disk cache keeps what was made), never by the lake.
 */
const HERO = { width: 3200, height: 2000, extension: 'jpg' };
const WEBP = 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8';
const ask = (query: string, source = HERO) => normalizeLakeRequest(source, new URLSearchParams(query), WEBP);
const specOf = (query: string, source = HERO): ImageSpec => {
  const result = ask(query, source);
  if (!('spec' in result)) throw new Error(`expected a variant for ${query}, got ${JSON.stringify(result)}`);
  return result.spec;
};

describe('normalizeLakeRequest', () => {
  it("snaps and caps a huge or odd size: the probe's 3999×3998 WebP is the site's largest width", () => {
    expect(specOf('w=3999&h=3998&fm=webp')).toEqual({ width: LAKE_MAX_WIDTH, fit: 'inside', format: 'webp' });
    expect(LAKE_MAX_WIDTH).toBe(2048);
    expect(specOf('w=100000&h=1&fit=crop&dpr=50').width).toBeLessThanOrEqual(LAKE_MAX_WIDTH);
    expect(specOf('w=37')).toEqual({ width: 64, fit: 'inside', format: 'jpeg' });
    expect(specOf('w=513')).toMatchObject({ width: 1024 });
    // A crop box of any ratio becomes a square, 3:2 or 2:3 one.
    expect(specOf('w=999&h=7&fit=crop')).toEqual({ width: 1024, height: 683, fit: 'cover', format: 'jpeg' });
    // Never above the source.
    expect(specOf('w=2000', { width: 300, height: 200, extension: 'png' })).toEqual({
      width: 300,
      fit: 'inside',
      format: 'png',
    });
    expect(ask('w=abc')).toEqual({ status: 400, message: 'w, h and dpr must be numbers' });
    expect(ask('w=-5')).toMatchObject({ status: 400 });
  });

  it('makes a few variants of an image whatever the URL asks (a sweep of sizes, ratios, dpr and fits)', () => {
    const variants = new Set<string>();
    for (const w of [1, 15, 33, 50, 99, 160, 333, 600, 1000, 1999, 2049, 4000, 99999])
      for (const h of ['', '1', '190', '400', '2000', '99999'])
        for (const fit of ['', 'crop', 'max', 'clip', 'min', 'fill', 'scale'])
          for (const dpr of ['', '1.5', '2', '3', '10'])
            for (const fm of ['', 'webp', 'jpg', 'avif', 'png']) {
              const q = new URLSearchParams({ w: String(w), fit, dpr, fm });
              if (h) q.set('h', h);
              const result = normalizeLakeRequest(HERO, q, WEBP);
              if ('spec' in result) {
                // A ladder width, or a crop box shrunk to fit the source (2000 high: 2000 square, 1333 at 2:3).
                expect([...LAKE_WIDTHS, 2000, 1333]).toContain(result.spec.width);
                variants.add(JSON.stringify(result.spec));
              }
            }
    // Widths × (inside, three crop ratios) × (JPEG, WebP).
    expect(variants.size).toBeLessThanOrEqual(LAKE_WIDTHS.length * 4 * 2);
  });

  it("answers the Studio's own requests with a variant at least as large as it shows", () => {
    // Previews: squares of 15-160 px, cropped, at dpr 1-3; the block image 600×400.
    expect(specOf('w=33&h=33&fit=crop')).toEqual({ width: 64, height: 64, fit: 'cover', format: 'jpeg' });
    expect(specOf('w=73&h=73&fit=crop&dpr=2')).toEqual({ width: 256, height: 256, fit: 'cover', format: 'jpeg' });
    expect(specOf('w=160&h=160&fit=crop&dpr=3')).toEqual({ width: 512, height: 512, fit: 'cover', format: 'jpeg' });
    expect(specOf('w=600&h=400&fit=crop')).toEqual({ width: 1024, height: 683, fit: 'cover', format: 'jpeg' });
    // The image field: w=2000, fit=max, auto=format (WebP for a browser that takes it).
    expect(ask('w=2000&fit=max&auto=format&dpr=2')).toEqual({
      spec: { width: 2048, fit: 'inside', format: 'webp' },
      varyAccept: true,
    });
    // Review changes (h=190) and the asset browser (h=200, 400, 800): a height alone bounds the box.
    expect(specOf('h=190&fit=max')).toMatchObject({ width: 512, fit: 'inside' }); // 304 px wide fits
    expect(specOf('h=800&fit=max')).toMatchObject({ width: 2048 }); // 1280 px wide fits
    // The file itself: ?dl, or no parameters at all.
    expect(ask('dl=')).toEqual({ original: true });
    expect(ask('')).toEqual({ original: true });
  });
});

describe("the lake's image route (HTTP, the site's resizer)", () => {
  let database: Database;
  let server: Server;
  let base: string;
  let dir: string;
  let gate: { specs: ImageSpec[]; release: () => void; blocked: boolean };
  let resizer: ImageResizer;
  const FILE = `${'a'.repeat(40)}-2400x1500.jpg`;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    dir = await mkdtemp(path.join(os.tmpdir(), 'lake-images-test-'));
    const bytes = await sharp({ create: { width: 2400, height: 1500, channels: 3, background: '#2a6' } })
      .jpeg()
      .toBuffer();
    const file = path.join(dir, FILE);
    await writeFile(file, bytes);
    const store = new LakeStore(database.db);
    await store.open([]);
    // Kept as an upload too, where the lake used to read it from.
    await store.saveAsset(
      FILE,
      { _id: `image-${'a'.repeat(40)}-2400x1500-jpg`, _type: 'sanity.imageAsset' } as never,
      'image/jpeg',
      bytes,
      'editor',
    );
    // Real sharp, unless the test holds resizes back to fill the queue.
    let waiting: (() => void)[] = [];
    gate = {
      specs: [],
      blocked: false,
      release: () => {
        for (const go of waiting.splice(0)) go();
      },
    };
    const resize: ResizeFunction = async (source, spec) => {
      gate.specs.push(spec);
      if (gate.blocked) await new Promise<void>((resolve) => waiting.push(resolve));
      return sharpResize(source, spec);
    };
    // One slot and a queue of 4: the lake's requests may take 2 places in it, and 1 may wait for room.
    resizer = new ImageResizer({
      cacheDir: path.join(dir, 'cache'),
      resize,
      slots: 1,
      queueLimit: 4,
      log: () => {},
    });
    const asset: ImageAssetFile = { file, extension: 'jpg', mimeType: 'image/jpeg', width: 2400, height: 1500 };
    const handle = createLakeHandler({
      store,
      projectId: 'placeholder',
      assetProjectId: 'embedded',
      dataset: 'production',
      authenticate: async () => null,
      allowedOrigins: () => false,
      images: { file: async (name) => (name === FILE ? asset : undefined), resizer, waiters: 1, waitMs: 60_000 },
    });
    server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/images/embedded/production/${FILE}`;
    waiting = [];
  });
  afterAll(async () => {
    gate.release();
    await new Promise((resolve) => server.close(resolve));
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  const size = async (res: Response) => {
    expect(res.status).toBe(200);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    return { width: meta.width, height: meta.height, format: meta.format };
  };

  it("answers the probe's huge request with the capped variant, without signing in", async () => {
    const res = await fetch(`${base}?w=3999&h=3998&fm=webp`);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(await size(res)).toEqual({ width: 2048, height: 1280, format: 'webp' });
    // Made once: the same variant again (another spelling) comes from the cache.
    const made = gate.specs.length;
    expect(await size(await fetch(`${base}?w=3000&h=3000&fm=webp&dpr=2`))).toMatchObject({ width: 2048 });
    expect(gate.specs.length).toBe(made);
  });

  it("serves the Studio's sizes, snapped up, and the original for ?dl", async () => {
    expect(await size(await fetch(`${base}?w=33&h=33&fit=crop&dpr=2`))).toEqual({
      width: 128,
      height: 128,
      format: 'jpeg',
    });
    expect(await size(await fetch(`${base}?h=190&fit=max`))).toEqual({ width: 512, height: 320, format: 'jpeg' });
    const field = await fetch(`${base}?w=2000&fit=max&auto=format`, { headers: { Accept: WEBP } });
    expect(field.headers.get('vary')).toMatch(/Accept/);
    expect(await size(field)).toEqual({ width: 2048, height: 1280, format: 'webp' });
    const original = await fetch(`${base}?dl=`);
    expect(original.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(await size(original)).toEqual({ width: 2400, height: 1500, format: 'jpeg' });
    expect((await fetch(`${base}?w=oops`)).status).toBe(400);
  });

  it("answers 503 with Retry-After past its share of the queue, leaving the site's share free", async () => {
    gate.blocked = true;
    const before = gate.specs.length;
    try {
      // Six variants not made yet: one runs, two queue (the lake's half of the queue), one waits
      // for room, two are refused at once.
      const asks = [
        'w=50&fm=webp',
        'w=100&fm=webp',
        'w=200&fm=webp',
        'w=400&fm=webp',
        'w=800&fm=webp',
        'w=100&h=100&fit=crop&fm=webp',
      ];
      const answers: Promise<Response>[] = [];
      for (const q of asks) {
        answers.push(fetch(`${base}?${q}`));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const refused = await Promise.all(answers.slice(4));
      expect(refused.map((r) => r.status)).toEqual([503, 503]);
      expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(gate.specs.length - before).toBe(1);
      expect(resizer.load).toEqual({ active: 1, queued: 2 });
      // The site's own image route still finds room in the queue.
      const site = resizer.get(
        { file: path.join(dir, FILE), name: FILE, extension: 'jpg', width: 2400, height: 1500 },
        {
          width: 333,
          fit: 'inside',
          format: 'jpeg',
        },
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(resizer.load).toEqual({ active: 1, queued: 3 });
      gate.blocked = false;
      gate.release();
      // The waiting one got its turn: the editor sees every preview that was not refused.
      const served = await Promise.all(answers.slice(0, 4));
      expect(served.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect((await site).kind).toBe('ok');
    } finally {
      gate.blocked = false;
      gate.release();
    }
  });
});

/** An editor's uploads (issue 40, items 6 and 7): cleaned of personal metadata, refused when too large to resize. */
describe("the lake's uploads", () => {
  let database: Database;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    const store = new LakeStore(database.db);
    await store.open([]);
    const handle = createLakeHandler({
      store,
      projectId: 'placeholder',
      dataset: 'production',
      authenticate: async () => ({ id: 'editor-1', name: 'Eda', email: 'editor@example.com' }),
      allowedOrigins: () => false,
    });
    server = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await database.close();
  });

  const upload = (bytes: Buffer, name: string) =>
    fetch(`${base}/v2025-02-19/assets/images/production?filename=${name}`, {
      method: 'POST',
      headers: { Authorization: 'Bearer x' },
      body: new Uint8Array(bytes),
    });
  const assetCount = async () => {
    const rows = await database.db.execute(sql`select count(*)::int as n from lake_assets`);
    return Number((rows as unknown as { rows: { n: number }[] }).rows[0]!.n);
  };
  const served = async (document: { path: string }, query = '') =>
    fetch(`${base}/images/placeholder/production/${document.path.split('/').pop()}${query}`);

  it('stores a photo without its GPS position, author, XMP or IPTC, upright and with its colour profile', async () => {
    // A 40×20 photo taken on its side (orientation 6: shown 20×40), with its position and author.
    const photo = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#c33' } })
      .withIccProfile('p3')
      .withExif({
        IFD0: { Artist: 'Layla Haddad', Copyright: 'Layla Haddad' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '25/1 11/1 0/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '55/1 16/1 0/1',
        },
      })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const sent = await sharp(photo).metadata();
    expect(sent.exif?.toString('latin1')).toContain('Layla Haddad');
    expect(sent.orientation).toBe(6);
    expect(sent.exif?.length).toBeGreaterThan(200); // the GPS block too

    const res = await upload(photo, 'IMG_0001.jpg');
    expect(res.status).toBe(200);
    const { document } = await res.json();
    expect(document).toMatchObject({ extension: 'jpg', metadata: { dimensions: { width: 20, height: 40 } } });
    const image = await served(document);
    expect(image.status).toBe(200);
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await image.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 20, height: 40 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(meta.icc).toBeDefined();
    expect(bytes.toString('latin1')).not.toContain('Layla Haddad');

    // A download keeps the image's own extension, whatever name the link asks for.
    for (const [asked, name] of [
      ['a.html', 'a.jpg'],
      ['report.svg.html', 'report.svg.jpg'],
      ['', document.path.split('/').pop()],
      ['..html', document.path.split('/').pop()],
    ]) {
      const download = await served(document, `?dl=${encodeURIComponent(asked)}`);
      expect(download.headers.get('content-disposition'), asked).toBe(`attachment; filename="${name}"`);
      expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('refuses an image too large for the resizer, saying why in both languages, and stores nothing', async () => {
    // A PNG whose header says 16000×16000 (the check reads the header; nothing is decoded).
    const huge = await pngClaiming(16000, 16000);
    expect(await sharp(huge).metadata()).toMatchObject({ width: 16000, height: 16000 });

    const before = await assetCount();
    const res = await upload(huge, 'poster.png');
    expect(res.status).toBe(400);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const answer = await res.json();
    expect(answer.message).toContain('16000 × 16000 pixels (256 megapixels); the largest accepted is 40 megapixels');
    expect(answer.message).toContain('صغّر الصورة ثم ارفعها من جديد');
    expect(answer.error).toMatchObject({ type: 'assetError' });
    expect(await assetCount()).toBe(before);
  });
});
