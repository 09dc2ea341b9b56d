import { rmSync } from 'node:fs';
import { Suspense } from 'react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readHandoffData, renderDocument } from './entry.server';

// Importing the entry starts the server's stores: on a data folder of this test's own, never the
// project's data/ (which a running server may hold).
const dataDir = vi.hoisted(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { mkdtempSync } = require('node:fs') as typeof import('node:fs');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { tmpdir } = require('node:os') as typeof import('node:os');
  const dir = mkdtempSync(`${tmpdir()}/entry-`);
  process.env.CONTENT_DATA_DIR = dir;
  process.env.PORTAL_JOBS_INTERVAL_SECONDS = '0';
  return dir;
});
afterAll(async () => {
  await (await globalThis.__database)?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function Broken(): never {
  throw new Error('a widget that fails on the server');
}

describe('renderDocument', () => {
  it('renders the whole page as one HTML document', () => {
    const page = renderDocument(
      <html lang="ar" dir="rtl">
        <head>
          <link rel="modulepreload" href="/build/root-X.js" nonce="N" />
        </head>
        <body>
          <p>مرحباً بكم في الإمارات</p>
        </body>
      </html>,
    );
    expect(page.complete).toBe(true);
    expect(page.html).toBe(
      '<!DOCTYPE html><html lang="ar" dir="rtl"><head><link rel="modulepreload" href="/build/root-X.js" nonce="N"/></head>' +
        '<body><p>مرحباً بكم في الإمارات</p></body></html>',
    );
  });

  it('says the page is incomplete when a part of it could not be rendered (the entry answers 500, not stored)', () => {
    const page = renderDocument(
      <div>
        <Suspense fallback={null}>
          <Broken />
        </Suspense>
        <p>the rest</p>
      </div>,
    );
    expect(page.html).toContain('the rest');
    expect(page.complete).toBe(false);
  });

  it('does not take escaped content that looks like that marker for a failure', () => {
    expect(renderDocument(<p>{'<!--$!-->'}</p>).complete).toBe(true);
  });
});

describe('readHandoffData', () => {
  it("reads Remix's whole data stream and hands it over as one piece then the end (an Arabic letter split across pieces stays whole)", async () => {
    const bytes = new TextEncoder().encode('[{"title":"مرحبا"}]');
    const cut = bytes.indexOf(0xd8) + 1; // inside the first Arabic letter's two bytes
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, cut));
        controller.enqueue(bytes.subarray(cut));
        controller.close();
      },
    });
    const context = {
      serverHandoffStream: stream,
      renderMeta: {} as NonNullable<Parameters<typeof readHandoffData>[0]['renderMeta']>,
    };
    await readHandoffData(context);
    const cache = context.renderMeta.streamCache!;
    expect(cache[0].result).toEqual({ done: false, value: '[{"title":"مرحبا"}]' });
    expect(cache[1].result).toEqual({ done: true, value: '' });
    await expect(cache[0]).resolves.toBeUndefined();
  });
});
