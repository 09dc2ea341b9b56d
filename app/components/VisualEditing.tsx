import { useLocation, useNavigate, useRevalidator, useRouteLoaderData } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { LAKE_STUDIO_PROJECT_ID } from '~/lib/lake-studio';
import { useShell } from '~/lib/shell';
import type { RootData } from '~/lib/root-data';
import type { OverlayHost, Overlays as OverlaysHandle } from '~/preview/overlays.browser';
import type { Perspective } from '~/sanity/types';

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
  const { preview, overlays } = useShell();
  const image = useRouteLoaderData<RootData>('root')?.image;
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  if (!preview || !overlays || !image || !mounted) return null;
  const projectId = image.world === 'hosted' ? image.projectId : LAKE_STUDIO_PROJECT_ID;
  return <Overlays url={overlays} perspective={preview} projectId={projectId} dataset={image.dataset} />;
}

/**
 * The overlays are a bundle of their own (app/preview/overlays.browser.tsx, built by
 * scripts/build-overlays.mjs, ADR 0024), imported by the URL the server gives preview sessions:
 * the app's build never sees their modules. This side hands them Remix's navigation, location
 * and revalidation as plain callbacks.
 */
function Overlays({
  url,
  perspective,
  projectId,
  dataset,
}: {
  url: string;
  perspective: Perspective;
  projectId: string;
  dataset: string;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  const revalidator = useRevalidator();
  const latest = useRef({ navigate, revalidator, perspective, location });
  latest.current = { navigate, revalidator, perspective, location };
  const [handle, setHandle] = useState<OverlaysHandle | null>(null);

  // A refresh resolves once the loaders it started have run (loading, then idle again), as the
  // Remix adapter of @sanity/visual-editing does: the Studio waits for it.
  const waiting = useRef<(() => void)[]>([]);
  const loading = useRef(false);
  useEffect(() => {
    if (revalidator.state === 'loading') loading.current = true;
    else if (loading.current) {
      loading.current = false;
      for (const resolve of waiting.current.splice(0)) resolve();
    }
  }, [revalidator.state]);

  useEffect(() => {
    let stopped = false;
    let started: OverlaysHandle | undefined;
    const host: OverlayHost = {
      projectId,
      dataset,
      perspective: () => latest.current.perspective,
      location: () => {
        const { pathname, search, hash } = latest.current.location;
        return `${pathname}${search}${hash}`;
      },
      navigate: (to, replace) => latest.current.navigate(to, { replace }),
      back: () => latest.current.navigate(-1),
      revalidate: () =>
        new Promise((resolve) => {
          waiting.current.push(resolve);
          latest.current.revalidator.revalidate();
        }),
    };
    // A URL, not a module name: esbuild leaves the import to the browser.
    import(/* @vite-ignore */ url).then(
      ({ start }: { start: (host: OverlayHost) => OverlaysHandle }) => {
        if (stopped) return;
        started = start(host);
        setHandle(started);
      },
      (error: unknown) => console.warn(`[preview] the visual editing overlays did not load: ${String(error)}`),
    );
    return () => {
      stopped = true;
      started?.stop();
      setHandle(null);
    };
  }, [url, projectId, dataset]);

  // The Studio's URL bar follows the page.
  useEffect(() => handle?.moved(), [handle, location.pathname, location.search, location.hash]);
  return null;
}
