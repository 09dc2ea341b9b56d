import { DEFAULT_STUDIO_URL, env } from '~/lib/env.server';
import { EmbeddedContentClient } from './embedded.server';
import { HostedContentClient } from './hosted.server';
import type { ContentClient } from './types';
import { log as logger } from '~/lib/log.server';

/**
 * The one content client every loader and action uses. Which world runs is decided
 * once from the environment: a Sanity project id means hosted, anything else embedded.
 */
declare global {
  // Survives module re-evaluation in development, so the dataset is parsed once.
  var __contentClient: ContentClient | undefined;
}

export function contentClient(): ContentClient {
  if (!globalThis.__contentClient) {
    const { content, isProduction } = env();
    const log = (message: string) => logger.info(`[content] ${message}`);
    if (content.world === 'hosted') {
      globalThis.__contentClient = new HostedContentClient(content);
      log(
        `hosted world: Sanity project ${content.projectId}, dataset ${content.dataset}, API ${content.apiVersion}` +
          `${content.apiHost ? ` at ${content.apiHost}` : ''}` +
          `${content.readToken ? `, drafts enabled (Studio preview with edit links to ${content.studioUrl})` : ', no read token (no drafts)'}` +
          `${content.writeToken ? ', writes enabled' : ', no write token (forms cannot store submissions)'}`,
      );
      if (content.readToken && isProduction && content.studioUrl === DEFAULT_STUDIO_URL) {
        log(
          `SANITY_STUDIO_URL is not set: preview edit links point to ${content.studioUrl}; set it to the deployed Studio's URL`,
        );
      }
    } else {
      const client = new EmbeddedContentClient({
        ...content,
        watch: !isProduction || process.env.CONTENT_WATCH === '1',
        log,
      });
      globalThis.__contentClient = client;
      client.whenReady().then(
        () =>
          log(
            `embedded world: ${content.datasetFile} (${client.documentCount} documents), portal records and the write log in ${content.dataDir}/`,
          ),
        (error) => log(`embedded world: could not load ${content.datasetFile}: ${String(error)}`),
      );
    }
  }
  return globalThis.__contentClient;
}
