import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { database } from '~/db/client.server';
import { imageResizer } from '~/features/images/resize.server';
import { env, isLoopbackSite } from '~/lib/env.server';
import { metrics } from '~/lib/metrics.server';
import { LAKE_STUDIO_PROJECT_ID } from '~/lib/lake-studio';
import { allowEmbeddedStudioPreview } from '~/lib/preview.server';
import { contentClient } from '~/sanity/client.server';
import type { EmbeddedContentClient, ImageAssetFile } from '~/sanity/embedded.server';
import { createLakeHandler } from './api.server';
import { DEMO_EDITOR, DEV_STUDIO_ORIGINS, editorFromRequest, prepareDemoEditor, signOutEditor } from './editors.server';
import { createPresence } from './presence.server';
import { lakeSecretCheck, sweepExpiredSecrets } from './preview-secret.server';
import { createLakeServer } from './server-limits.server';
import { LakeStore, touchesPublished } from './store.server';
import { lakeTls } from './tls.server';
import { log as logger } from '~/lib/log.server';

/**
 * The local Content Lake (ADR 0025), started by server.mjs in the embedded world only: the
 * Sanity API the real Studio needs, over HTTP/2 and TLS on its own loopback port (LAKE_PORT,
 * default the site's port + 443), over the site's own embedded database and content client, so an edit is
 * durable (one database, one lock, one backup) and the site reads it at once.
 */

/** The Studio's project id (studio/env.ts's placeholder unless SANITY_STUDIO_PROJECT_ID was set). */
export const STUDIO_PROJECT_ID = LAKE_STUDIO_PROJECT_ID;
/** Where the site serves the built Studio (server.mjs). */
export const STUDIO_PATH = '/studio';

export type StartedLake = {
  store: LakeStore;
  /** What the Studio's `apiHost` must be: `https://localhost:{port}`, or the site's own `{origin}/studio/api`. */
  apiHost: string;
  /** The loopback TLS port, or null when the lake answers on the site's origin only. */
  port: number | null;
  caFile: string | null;
  /** The API on the site's own server, under LAKE_SITE_PATH (server.mjs sends those requests here). */
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** The presence WebSocket's upgrade (on the site's own server too): true when it was answered. */
  upgrade: (req: IncomingMessage, socket: Duplex, head?: Buffer) => boolean;
  close(): Promise<void>;
};

/** How often expired preview secrets are swept (sweepExpiredSecrets). */
const SECRET_SWEEP_MS = 5 * 60 * 1000;

/** Where the site's own server answers the lake's API (a public site: see lakeOnSite). */
export const LAKE_SITE_PATH = '/studio/api';

/**
 * Whether the lake answers on the site's own origin (`{SITE_URL}/studio/api`) instead of its
 * loopback TLS port: on a public site served over HTTPS. Its TLS front (the operator's
 * certificate, HTTP/2 to the browser: the Studio's many event streams need it) then covers the
 * Studio and its API alike, and no editor imports anything. A site on loopback (a fresh clone,
 * plain HTTP) keeps the loopback port: HTTP/2 needs TLS, and the site itself speaks HTTP/1.1.
 * `LAKE_API=port` keeps the port on a public site (a proxy without HTTP/2, or none).
 */
export function lakeOnSite(siteUrl: string, choice = process.env.LAKE_API): boolean {
  if (choice === 'port') return false;
  return siteUrl.startsWith('https://') && !isLoopbackSite(siteUrl);
}

declare global {
  var __lake: Promise<StartedLake> | undefined;
}

/** The lake's store over the site's database and content client (no HTTP), once per process. */
export async function lakeStore(): Promise<LakeStore> {
  if (!globalThis.__lakeStore) {
    globalThis.__lakeStore = (async () => {
      const client = contentClient();
      if (client.world !== 'embedded') throw new Error('the local Content Lake runs in the embedded world only');
      const embedded = client as EmbeddedContentClient;
      const store = new LakeStore((await database()).db);
      await store.open(await embedded.baseDocuments());
      embedded.onBaseReload((docs) => store.setBase(docs));
      embedded.setOverlay(() => store.overlayDocuments());
      embedded.setExtraAssets((fileName) => uploadedImageFile(store, fileName));
      store.onCommit((tx) => {
        const types = new Set<string>();
        for (const e of tx.effects) {
          const type = (e.after ?? e.before)?._type;
          if (type) types.add(type);
        }
        embedded.overlayChanged(types, touchesPublished(tx));
      });
      return store;
    })();
  }
  return globalThis.__lakeStore;
}

declare global {
  var __lakeStore: Promise<LakeStore> | undefined;
}

/** The site's port + 443 unless LAKE_PORT says (3000 → 3443): two sites on one machine never collide. */
export function lakePort(): number {
  return Number(process.env.LAKE_PORT ?? Number(process.env.PORT ?? 3000) + 443);
}

/** Starts the lake's HTTPS server (once per process). */
export function startLake(options: { port?: number; siteOrigins?: string[] } = {}): Promise<StartedLake> {
  if (!globalThis.__lake) globalThis.__lake = start(options);
  return globalThis.__lake;
}

async function start(options: { port?: number; siteOrigins?: string[] }): Promise<StartedLake> {
  const e = env();
  if (e.content.world !== 'embedded') throw new Error('the local Content Lake runs in the embedded world only');
  const store = await lakeStore();
  // The Presentation tool: its preview secrets are checked in this store, and preview reads
  // carry stega edit links to the Studio the site serves (issue 39).
  allowEmbeddedStudioPreview(lakeSecretCheck(store));
  // Secrets a visit left behind (a closed tab) are deleted once their hour has passed.
  setInterval(() => {
    sweepExpiredSecrets(store).catch((error: unknown) =>
      logger.error(`[lake] preview secrets not swept: ${error instanceof Error ? error.message : String(error)}`),
    );
  }, SECRET_SWEEP_MS).unref();
  const demo = await prepareDemoEditor(isLoopbackSite(e.siteUrl));
  if (demo === 'seeded' || demo === 'kept')
    logger.info(
      `[lake] demo editor ${DEMO_EDITOR.email} (this machine's site only): sign in at ${e.siteUrl}/studio/sign-in${e.mail.smtpUrl ? '' : `, the code lands in ${e.mail.outboxDir}/`}`,
    );
  else if (demo === 'removed') logger.info(`[lake] demo editor ${DEMO_EDITOR.email} removed: ${e.siteUrl} is public`);
  const embedded = contentClient() as EmbeddedContentClient;
  embedded.setStega(STUDIO_PATH);
  const port = options.port ?? lakePort();
  const onSite = lakeOnSite(e.siteUrl);
  const origins = new Set([new URL(e.siteUrl).origin, ...(options.siteOrigins ?? [])]);
  // The Studio is served by the site at /studio, and, for a site only this machine reaches, by
  // `sanity dev` at :3333 (npm run studio:dev).
  const devStudio = isLoopbackSite(e.siteUrl);
  const allowedOrigins = (origin: string) => origins.has(origin) || (devStudio && DEV_STUDIO_ORIGINS.includes(origin));
  const handle = createLakeHandler({
    store,
    projectId: STUDIO_PROJECT_ID,
    assetProjectId: embedded.projectId,
    dataset: embedded.dataset,
    authenticate: editorFromRequest,
    signOut: signOutEditor,
    providers: [{ name: 'bawaba-editor', title: 'Editor sign-in (emailed code)', url: `${e.siteUrl}/studio/sign-in` }],
    allowedOrigins,
    // The site's image route's own resizer (one queue and cache for both): bundled images and
    // those uploaded in the Studio (written out to {data}/lake-images by uploadedImageFile).
    images: { file: (fileName) => embedded.imageAsset(fileName), resizer: imageResizer(e.content.dataDir) },
    log: (message) => logger.info(`[lake] ${message}`),
    pathPrefix: LAKE_SITE_PATH,
  });
  // Every API request is counted (bawaba_lake_requests_total), on either server.
  const counted = (
    req: IncomingMessage | Http2ServerRequest,
    res: ServerResponse | Http2ServerResponse,
  ): Promise<void> => {
    (res as ServerResponse).once('finish', () =>
      metrics().lakeRequests.inc({ status: `${Math.floor(res.statusCode / 100)}xx` }),
    );
    return handle(req, res);
  };
  // The Studio's presence WebSocket (over HTTP/1.1), on the lake's port or the site's own server.
  const presence = createPresence({
    dataset: embedded.dataset,
    authenticate: editorFromRequest,
    allowedOrigins,
    log: (message) => logger.info(`[lake] ${message}`),
  });
  const upgrade = (req: IncomingMessage, socket: Duplex, head?: Buffer): boolean => {
    if (req.url?.startsWith(`${LAKE_SITE_PATH}/`)) req.url = req.url.slice(LAKE_SITE_PATH.length);
    return presence.upgrade(req, socket, head);
  };
  if (onSite) {
    const apiHost = `${new URL(e.siteUrl).origin}${LAKE_SITE_PATH}`;
    logger.info(
      `[lake] local Content Lake for the Studio at ${apiHost} (the site's own origin: its HTTPS front must speak HTTP/2, see docs/operating.md)`,
    );
    return { store, apiHost, port: null, caFile: null, handle: counted, upgrade, close: () => handle.close() };
  }
  const tls = await lakeTls(e.content.dataDir, [STUDIO_PROJECT_ID]);
  // The site's port's timeouts (server-limits.server.ts): no trickling or idle connection is kept.
  const server = createLakeServer(tls, (req, res) => {
    void counted(req, res);
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!upgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const apiHost = `https://localhost:${port}`;
  logger.info(
    `[lake] local Content Lake for the Studio at ${apiHost} (HTTP/2, TLS; trust ${tls.caFile ?? 'your LAKE_TLS_CERT'} in your browser, see README)`,
  );
  return {
    store,
    apiHost,
    port,
    caFile: tls.caFile,
    handle: counted,
    upgrade,
    close: async () => {
      await handle.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An image uploaded in the Studio as a file the site's resizer can read (kept in the database). */
async function uploadedImageFile(store: LakeStore, fileName: string): Promise<ImageAssetFile | undefined> {
  const m = /^([0-9a-f]{40})-(\d+)x(\d+)\.([a-z]+)$/.exec(fileName);
  if (!m) return undefined;
  const content = env().content;
  if (content.world !== 'embedded') return undefined;
  const dir = path.resolve(content.dataDir, 'lake-images');
  const file = path.join(dir, fileName);
  const found = await store.asset(fileName);
  if (!found) return undefined;
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, found.bytes);
  }
  return { file, extension: m[4], mimeType: found.mimeType, width: Number(m[2]), height: Number(m[3]) };
}
