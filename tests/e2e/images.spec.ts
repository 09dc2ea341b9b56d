import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { ImageResizer, normalizeRequest } from '../../app/features/images/resize.server';
import { kill, startOwnServer, type OwnServer } from './own-server';

/**
 * The embedded world's image route (app/resources/image.ts, features/images/resize.server.ts):
 * the site's own image URLs are served at the size they ask for, and a flood of image requests
 * (huge widths, AVIF, identical and distinct keys) cannot slow the pages down. The flood runs
 * against a server this file starts itself (own data folder, so its image cache starts cold and
 * its log is ours to read; a free port in 3700-3799, loopback).
 */
test.describe.configure({ mode: 'default' });

const WEBP_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
// The query may hold commas (rect=0,30,1600,840); in a srcset a space ends the URL.
const IMAGE_PATH = /\/images\/embedded\/production\/[0-9a-f]{40}-\d+x\d+\.(?:jpg|png)(?:\?[^"'\s\\]*)?/g;

/** The image URLs in a page's HTML: src, srcset, og:image, JSON-LD and the loader data (entities and escapes decoded, made relative). */
function imageUrls(html: string): string[] {
  const decoded = html.replace(/&amp;/g, '&').replace(/\\u0026/g, '&');
  return [...new Set([...decoded.matchAll(IMAGE_PATH)].map((m) => m[0]))];
}

test("the site's own image URLs are all served, at the size they ask for", async ({ request }) => {
  test.setTimeout(120_000);
  // The home page, about, the case studies and one of each article page: every layout width,
  // the share images and both JSON-LD logos (the blog list's cards are an article's related cards).
  const pages = ['/', '/about', '/case-studies'];
  const firstLink = async (list: string, prefix: string) => {
    const html = await (await request.get(list)).text();
    return new RegExp(`href="(${prefix}/[a-z0-9-]+)"`).exec(html)?.[1];
  };
  for (const extra of [await firstLink('/blog', '/blog'), await firstLink('/case-studies', '/case-studies')]) {
    expect(extra, 'an article and a case study to look at').toBeTruthy();
    pages.push(extra!);
  }
  const urls = new Set<string>();
  for (const page of pages) {
    const response = await request.get(page);
    expect(response.status(), page).toBe(200);
    for (const url of imageUrls(await response.text())) urls.add(url);
  }
  // Hero, logo, cards, testimonials, covers, share images, JSON-LD logos.
  expect(urls.size).toBeGreaterThan(30);
  expect(
    [...urls].some((u) => /[?&]w=1200&h=630/.test(u)),
    'a share image',
  ).toBe(true);

  let rects = 0;
  for (const url of urls) {
    const [, srcWidth, srcHeight] = /-(\d+)x(\d+)\./.exec(url)!.map(Number);
    const query = new URL(url, 'http://x').searchParams;
    let response = await request.get(url, { headers: { accept: WEBP_ACCEPT } });
    // Other tests share this server: a full queue is told to come back, and we do.
    for (let i = 0; i < 10 && response.status() === 503; i++) {
      await new Promise((r) => setTimeout(r, 1000 * Number(response.headers()['retry-after'] ?? 1)));
      response = await request.get(url, { headers: { accept: WEBP_ACCEPT } });
    }
    expect(response.status(), url).toBe(200);
    expect(response.headers()['content-type'], url).toBe(
      query.get('auto') === 'format' ? 'image/webp' : url.includes('.png') ? 'image/png' : 'image/jpeg',
    );
    expect(response.headers()['cache-control'], url).toContain('immutable');
    const body = await response.body();
    const meta = await sharp(body).metadata();
    const w = Number(query.get('w'));
    if (!query.has('w')) {
      // The asset's own URL (in the loader data): the whole image, at most 2048 px wide.
      expect(meta.width, url).toBe(Math.min(srcWidth!, 2048));
    } else if (query.has('h')) {
      const h = Number(query.get('h'));
      // The site only asks for boxes inside the source, so exactly that box.
      expect(w <= srcWidth! && h <= srcHeight!, url).toBe(true);
      expect(`${meta.width}x${meta.height}`, url).toBe(`${w}x${h}`);
      // Sanity's URL builder adds the crop box it means (rect); the route crops the centre at
      // the asked ratio, which is that box as long as the dataset sets no crop or hotspot.
      const rect = query.get('rect')?.split(',').map(Number);
      if (rect) {
        const [left, top, width, height] = rect as [number, number, number, number];
        const centre =
          srcWidth! / srcHeight! > w / h
            ? { width: Math.round((srcHeight! * w) / h), height: srcHeight! }
            : { width: srcWidth!, height: Math.round((srcWidth! * h) / w) };
        expect(Math.abs(width - centre.width) <= 1 && Math.abs(height - centre.height) <= 1, `${url}: the box`).toBe(
          true,
        );
        expect(
          Math.abs(left - (srcWidth! - width) / 2) <= 1 && Math.abs(top - (srcHeight! - height) / 2) <= 1,
          `${url}: centred`,
        ).toBe(true);
        rects++;
      }
    } else {
      expect(meta.width, url).toBe(Math.min(w, srcWidth!));
      expect(Math.abs(meta.height! - (meta.width! * srcHeight!) / srcWidth!), url).toBeLessThanOrEqual(1);
    }
  }
  expect(rects, 'share and card images checked against their crop box').toBeGreaterThan(0);
});

// ---------------------------------------------------------------------------------------------

type Server = OwnServer & { port: number; dir: string };

async function freePort(): Promise<number> {
  for (let port = 3700; port < 3800; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = net.createServer().once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port in 3700-3799');
}

let server: Server | undefined;

async function startServer(dir: string, fresh: boolean): Promise<Server> {
  if (fresh) rmSync(dir, { recursive: true, force: true });
  const port = await freePort();
  const started: Server = {
    ...(await startOwnServer(port, dir, { NODE_ENV: 'production', SITE_URL: 'https://www.bawaba-advisory.com' })),
    port,
    dir,
  };
  server = started;
  return started;
}

async function stopServer(s: Server) {
  await kill(s, 'SIGTERM');
  if (server === s) server = undefined;
}

test.afterAll(async () => {
  if (server) await stopServer(server);
});

const heroName = () => {
  const bytes = readFileSync('studio/dataset/images/home-hero.jpg');
  const { width, height } = { width: 3200, height: 2000 };
  return `${createHash('sha1').update(bytes).digest('hex')}-${width}x${height}.jpg`;
};
const resizeLines = (s: Server, name: string) =>
  s.output
    .join('')
    .split('\n')
    .filter((line) => line.includes(`[images] resized ${name} `));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
};

test('the image flood: a page answers within 1 s (median) during it', async () => {
  test.setTimeout(90_000);
  const dir = `.cache/e2e/images-flood-${process.pid}`;
  let s = await startServer(dir, true);
  const hero = heroName();
  const heroPath = `/images/embedded/production/${hero}`;
  // Names of the other images, from the home page.
  const names = [
    ...new Set(imageUrls(await (await fetch(`${s.base}/`)).text()).map((u) => u.split('?')[0]!.split('/').pop()!)),
  ].filter((n) => n !== hero);
  expect(names.length).toBeGreaterThanOrEqual(4);

  // 50 at once, two each: 100 requests. The first round is the probe's: 15 identical AVIF
  // w=4000 and 10 identical JPEG w=4000 of the hero, and 25 distinct keys; then more distinct ones.
  const WIDTHS = ['4000', '2048', '1440', '1024', '720', '360'];
  const plan: string[][] = Array.from({ length: 50 }, (_, worker) =>
    Array.from({ length: 2 }, (_, round) => {
      if (round === 0 && worker < 15) return `${heroPath}?w=4000&fm=avif`;
      if (round === 0 && worker < 25) return `${heroPath}?w=4000&fm=jpg`;
      const name = names[(worker + round * 7) % names.length]!;
      const w = WIDTHS[(worker + round) % WIDTHS.length]!;
      const h = worker % 3 === 0 ? `&h=${Math.round(Number(w) / 1.5)}&fit=crop` : '';
      return `/images/embedded/production/${name}?w=${w}${h}&${round % 2 ? 'fm=avif' : 'auto=format'}`;
    }),
  );
  const answers: { url: string; status: number; retryAfter: string | null; ms: number; error?: string }[] = [];
  let flooding = true;
  const flood = Promise.all(
    plan.map(async (urls) => {
      for (const url of urls) {
        const started = performance.now();
        try {
          const response = await fetch(s.base + url, {
            headers: { accept: WEBP_ACCEPT },
            signal: AbortSignal.timeout(30_000),
          });
          await response.arrayBuffer();
          answers.push({
            url,
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
            ms: performance.now() - started,
          });
        } catch (error) {
          answers.push({ url, status: 0, retryAfter: null, ms: performance.now() - started, error: String(error) });
        }
      }
    }),
  ).finally(() => {
    flooding = false;
  });

  // Meanwhile, the home page in both languages, one after the other, for as long as the flood lasts.
  const pageTimes: number[] = [];
  const floodStarted = performance.now();
  while (flooding) {
    for (const page of ['/', '/ar']) {
      const started = performance.now();
      const response = await fetch(s.base + page, { signal: AbortSignal.timeout(30_000) });
      await response.text();
      expect(response.status, page).toBe(200);
      pageTimes.push(performance.now() - started);
    }
  }
  await flood;
  const floodMs = performance.now() - floodStarted;

  const byStatus = answers.reduce<Record<number, number>>(
    (acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }),
    {},
  );
  const resizes = s.output
    .join('')
    .split('\n')
    .filter((line) => line.includes('[images] resized ')).length;
  console.log(
    `image flood: ${answers.length} requests in ${Math.round(floodMs)} ms, answers ${JSON.stringify(byStatus)}, ${resizes} resizes; ` +
      `pages: ${pageTimes.length}, median ${Math.round(median(pageTimes))} ms, max ${Math.round(Math.max(...pageTimes))} ms`,
  );

  expect(answers).toHaveLength(100);
  // Every answer is a picture or "come back later"; nothing else, nothing left hanging.
  expect(
    answers.filter((a) => a.status !== 200 && !(a.status === 503 && Number(a.retryAfter) >= 1)),
    'answers other than 200 or 503 + Retry-After',
  ).toEqual([]);
  expect(byStatus[200] ?? 0, 'some images served').toBeGreaterThanOrEqual(5);
  expect(pageTimes.length).toBeGreaterThanOrEqual(2);
  expect(median(pageTimes), 'median page time during the flood (ms)').toBeLessThan(1000);

  // The 15 identical AVIF asks shared one fate: one resize (to WebP, 2048 px wide), or all told
  // to come back when they found the queue full. Asking again, and after a restart, serves the
  // file kept on disk without resizing again.
  const identical = answers.filter((a) => a.url === `${heroPath}?w=4000&fm=avif`).map((a) => a.status);
  expect(identical).toEqual(Array(15).fill(identical[0]));
  const variant = normalizeRequest(
    { width: 3200, height: 2000, extension: 'jpg' },
    new URLSearchParams('w=4000&fm=avif'),
    WEBP_ACCEPT,
  );
  if ('status' in variant) throw new Error(variant.message);
  expect(variant.spec).toEqual({ width: 2048, fit: 'inside', format: 'webp' });
  const resizer = new ImageResizer({ cacheDir: path.join(dir, 'image-cache'), log: () => {} });
  const cached = resizer.filePath(ImageResizer.key({ name: hero }, variant.spec), 'webp');
  const heroWebp = () => resizeLines(s, hero).filter((line) => line.includes(' to 2048xauto webp '));
  expect(heroWebp()).toHaveLength(identical[0] === 200 ? 1 : 0);

  const again = await fetch(`${s.base}${heroPath}?w=4000&fm=avif`, { headers: { accept: WEBP_ACCEPT } });
  expect(again.status).toBe(200);
  expect(existsSync(cached), cached).toBe(true);
  expect(Buffer.from(await again.arrayBuffer()).equals(readFileSync(cached))).toBe(true);
  expect(heroWebp()).toHaveLength(1);
  const once = await fetch(`${s.base}${heroPath}?w=3000&fm=avif`, { headers: { accept: WEBP_ACCEPT } });
  expect(once.status).toBe(200);
  expect(heroWebp()).toHaveLength(1);

  await stopServer(s);
  s = await startServer(dir, false);
  const afterRestart = await fetch(`${s.base}${heroPath}?w=2000&auto=format`, { headers: { accept: WEBP_ACCEPT } });
  expect(afterRestart.status).toBe(200);
  expect(afterRestart.headers.get('vary')).toBe('Accept');
  expect(Buffer.from(await afterRestart.arrayBuffer()).equals(readFileSync(cached))).toBe(true);
  expect(resizeLines(s, hero)).toEqual([]);
  await stopServer(s);
  rmSync(dir, { recursive: true, force: true });
});
