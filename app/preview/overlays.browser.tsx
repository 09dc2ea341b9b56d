import { createClient, type ClientPerspective } from '@sanity/client';
import { useLiveMode } from '@sanity/react-loader';
import { enableVisualEditing, type HistoryAdapterNavigate } from '@sanity/visual-editing';
import { createRoot } from 'react-dom/client';
import type { Perspective } from '~/sanity/types';

/**
 * Sanity's visual editing, built apart from the app (scripts/build-overlays.mjs, ADR 0024): a
 * bundle of its own, with its own React, that a preview session imports by URL
 * (app/components/VisualEditing.tsx). Nothing crosses between the two Reacts but the plain
 * callbacks below, so the app's chunks never reach the overlays' modules and the framework stays
 * in one piece for visitors.
 */
export type OverlayHost = {
  /** The Studio's project and dataset (its messages name them). */
  projectId: string;
  dataset: string;
  /** The session's perspective now (it changes after a switch and a revalidation). */
  perspective: () => Perspective;
  /** The page's URL now (path, search and hash). */
  location: () => string;
  /** The Studio navigates the page. */
  navigate: (url: string, replace: boolean) => void;
  back: () => void;
  /** Runs the page's loaders again; resolves once they have finished. */
  revalidate: () => Promise<void>;
};

export type Overlays = {
  /** The page moved (a link, or the Studio's navigation): the Studio's URL bar follows it. */
  moved: () => void;
  stop: () => void;
};

/**
 * Starts the overlays (stega-encoded text becomes clickable, the Studio's history and refresh)
 * and live mode (the Studio's perspective switch): what @sanity/visual-editing/remix's
 * <VisualEditing/> and @sanity/react-loader's useLiveMode did inside the app.
 */
export function start(host: OverlayHost): Overlays {
  let report: HistoryAdapterNavigate | undefined;
  const moved = () => report?.({ type: 'push', url: host.location() });
  const disableOverlays = enableVisualEditing({
    // As the Remix adapter: an edit the Studio's live mode already shows needs no reload; any
    // other refresh (the reload button, a saved mutation) runs the loaders again, uncached.
    refresh: (payload) => (payload.source === 'mutation' && payload.livePreviewEnabled ? false : host.revalidate()),
    history: {
      subscribe: (navigate) => {
        report = navigate;
        moved();
        return () => {
          report = undefined;
        };
      },
      update: (update) => {
        if (update.type === 'push' || update.type === 'replace') host.navigate(update.url, update.type === 'replace');
        else if (update.type === 'pop') host.back();
      },
    },
  });

  // Live mode only compares the Studio's messages with this project and dataset; it fetches
  // nothing. Its hook runs in a root of its own that renders nothing on the page.
  const client = createClient({
    projectId: host.projectId,
    dataset: host.dataset,
    apiVersion: '2025-02-19',
    useCdn: false,
  });
  // When the editor chooses Published or Drafts, the session's cookie is re-signed with that
  // perspective and the loaders run again, now reading it. A release is previewed as drafts
  // (see studioPerspective in preview.server.ts).
  const onPerspective = (next: Exclude<ClientPerspective, 'raw'>) => {
    if ((next === 'published' ? 'published' : 'drafts') === host.perspective()) return;
    void fetch('/api/preview/perspective', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ perspective: next }),
    }).then((response) => {
      if (response.ok) void host.revalidate();
      else console.warn(`[preview] the perspective switch was refused (${response.status})`);
    });
  };
  function LiveMode() {
    useLiveMode({ client, onPerspective });
    return null;
  }
  const root = createRoot(document.createElement('div'));
  root.render(<LiveMode />);

  return {
    moved,
    stop: () => {
      disableOverlays();
      root.unmount();
    },
  };
}
