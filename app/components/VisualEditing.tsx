import { useRouteLoaderData } from '@remix-run/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { LAKE_STUDIO_PROJECT_ID } from '~/lib/lake-studio';
import { useShell } from '~/lib/shell';
import type { RootData } from '~/lib/root-data';

// The overlays (@sanity/visual-editing and its UI) are a chunk of their own, requested only
// by a preview session: visitors never download them.
const Overlays = lazy(() => import('./VisualEditingOverlays'));

/**
 * Sanity's visual editing in a preview session: inside the Studio's Presentation tool, the
 * stega-encoded text of the page becomes clickable (opens the field in the Studio), the
 * Studio can navigate the page, an edit there re-runs the page's loaders, and its
 * perspective switch (Published / Drafts) changes what the session reads. In the hosted
 * world the Studio is Sanity's project; in the embedded world it is the Studio the site
 * serves over the local Content Lake (its project id, app/lib/lake-studio.ts).
 * Nothing is rendered, or loaded, for visitors or on the server.
 */
export function VisualEditing() {
  const { preview } = useShell();
  const image = useRouteLoaderData<RootData>('root')?.image;
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  if (!preview || !image || !mounted) return null;
  const projectId = image.world === 'hosted' ? image.projectId : LAKE_STUDIO_PROJECT_ID;
  return (
    <Suspense fallback={null}>
      <Overlays perspective={preview} projectId={projectId} dataset={image.dataset} />
    </Suspense>
  );
}
