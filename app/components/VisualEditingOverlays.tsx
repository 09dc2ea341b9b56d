import { useRevalidator } from '@remix-run/react';
import { createClient, type ClientPerspective } from '@sanity/client';
import { useLiveMode } from '@sanity/react-loader';
import { VisualEditing } from '@sanity/visual-editing/remix';
import { useCallback, useMemo, useRef } from 'react';
import type { Perspective } from '~/sanity/types';

/**
 * Loaded lazily by VisualEditing.tsx, in preview sessions only.
 *
 * - @sanity/visual-editing's Remix adapter: the overlays that make stega-encoded text
 *   clickable, the Presentation tool's history (the Studio's URL bar follows the page and
 *   can navigate it), and its refresh: when a document changes in the Studio, or an editor
 *   presses reload, the Remix loaders run again (uncached in a preview session).
 * - @sanity/react-loader's live mode, for the Studio's perspective switch: when the editor
 *   chooses Published or Drafts, the session's cookie is re-signed with that perspective
 *   (/api/preview/perspective) and the loaders run again, now reading it. A release is
 *   previewed as drafts (see studioPerspective in preview.server.ts).
 *
 * The pages do not re-run their queries in the browser through useQuery: our loaders shape
 * and validate results on the server, and revalidating shows an edit once the Studio has
 * saved it (about a second), not on each keystroke.
 */
export default function VisualEditingOverlays({
  perspective,
  projectId,
  dataset,
}: {
  perspective: Perspective;
  /** The Studio's project and dataset (its messages name them). */
  projectId: string;
  dataset: string;
}) {
  // Live mode only compares the Studio's messages with this project and dataset; it fetches nothing.
  const client = useMemo(
    () => createClient({ projectId, dataset, apiVersion: '2025-02-19', useCdn: false }),
    [projectId, dataset],
  );

  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  revalidateRef.current = revalidate;
  const current = useRef(perspective);
  current.current = perspective;

  // Stable, so live mode connects once: it reconnects whenever a callback changes.
  const onPerspective = useCallback((next: Exclude<ClientPerspective, 'raw'>) => {
    if ((next === 'published' ? 'published' : 'drafts') === current.current) return;
    void fetch('/api/preview/perspective', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ perspective: next }),
    }).then((response) => {
      if (response.ok) revalidateRef.current();
      else console.warn(`[preview] the perspective switch was refused (${response.status})`);
    });
  }, []);

  useLiveMode({ client, onPerspective });
  return <VisualEditing />;
}
