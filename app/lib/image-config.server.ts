import { env } from '~/lib/env.server';
import type { ImageConfig } from '~/lib/image';

/** The image URL settings of this server's content world: sent to the browser by the root loader, used for absolute image URLs in meta and JSON-LD. */
export function imageConfig(): ImageConfig {
  const { content } = env();
  return { projectId: content.projectId, dataset: content.dataset, world: content.world };
}
