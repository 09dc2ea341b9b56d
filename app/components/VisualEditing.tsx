import { useRouteLoaderData } from '@remix-run/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useShell } from '~/lib/shell';
import type { RootData } from '~/lib/root-data';

// The overlays (@sanity/visual-editing and its UI) are a chunk of their own, requested only
// by a preview session in the hosted world: visitors never download them.
const Overlays = lazy(() => import('./VisualEditingOverlays'));

/**
 * Sanity's visual editing in a hosted preview session: inside the Studio's Presentation
 * tool, the stega-encoded text of the page becomes clickable (opens the field in the
 * Studio), the Studio can navigate the page, an edit there re-runs the page's loaders, and
 * its perspective switch (Published / Drafts) changes what the session reads.
 * Nothing is rendered, or loaded, for visitors, in the embedded world, or on the server.
 */
export function VisualEditing() {
  const { preview } = useShell();
  const hosted = useRouteLoaderData<RootData>('root')?.image.world === 'hosted';
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  if (!preview || !hosted || !mounted) return null;
  return (
    <Suspense fallback={null}>
      <Overlays perspective={preview} />
    </Suspense>
  );
}
