import { memo, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';

/**
 * A component of the page shell whose code is not among the page's first scripts (ADR 0012).
 *
 * - On the server the module is loaded when the app starts, so every page is rendered whole,
 *   with the component's markup in it (also with JavaScript off, and in the page cache).
 * - In the browser its code is fetched while the page hydrates; React hydrates the rest of the
 *   page first and this component's server markup when its code has arrived. Its Suspense
 *   boundary keeps that markup on screen meanwhile, and the memo keeps a re-render of the
 *   parent from replacing it (an update to a boundary that has not hydrated yet would).
 * - Mounted only on demand (a dialog), it renders nothing until its code is there.
 *
 * While some are loading, `<html data-deferred-loading="names">` lists them (end-to-end tests
 * wait for it to go before they use the shell's widgets).
 */
export function deferred<P extends object>(name: string, load: () => Promise<ComponentType<P>>) {
  let Loaded: ComponentType<P> | null = null;
  let failed = false;
  let pending: Promise<void> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (component) => {
        Loaded = component;
      },
      (error: unknown) => {
        // A chunk that cannot be fetched (offline): leave the widget out rather than the page.
        failed = true;
        settled(name);
        console.error(error);
      },
    ));
  if (typeof document === 'undefined') serverLoads.push(preload());

  function Mounted(props: P) {
    useEffect(() => settled(name), []);
    const Component = Loaded!;
    return <Component {...props} />;
  }
  function Gate(props: P) {
    if (failed) return null;
    if (!Loaded) {
      if (typeof document !== 'undefined') loading(name);
      // React's Suspense protocol (what React.lazy does): render again once the code is there.
      throw preload();
    }
    return <Mounted {...props} />;
  }
  const Deferred = memo(function Deferred(props: P) {
    return (
      <Suspense fallback={null}>
        <Gate {...props} />
      </Suspense>
    );
  });
  return Object.assign(Deferred, { preload });
}

const serverLoads: Promise<void>[] = [];
/**
 * Resolves when the server has loaded every deferred module (at start, before the first page is
 * rendered: the renderer does not wait for a component that suspends).
 */
export function allDeferredLoaded(): Promise<unknown> {
  return Promise.all(serverLoads);
}

const inFlight = new Set<string>();
function loading(name: string) {
  inFlight.add(name);
  document.documentElement.dataset.deferredLoading = [...inFlight].join(' ');
}
function settled(name: string) {
  if (!inFlight.delete(name)) return;
  if (inFlight.size) document.documentElement.dataset.deferredLoading = [...inFlight].join(' ');
  else delete document.documentElement.dataset.deferredLoading;
}

/**
 * For a deferred component mounted on demand (a dialog): true from the first time `open` is true
 * on, so that it stays mounted and can close with its focus return; and its code is fetched once
 * the browser is idle, so that a first opening does not wait for it.
 */
export function useMountedOnDemand(open: boolean, module: { preload: () => Promise<void> }) {
  const [mounted, setMounted] = useState(open);
  if (open && !mounted) setMounted(true);
  useEffect(() => preloadWhenIdle(module), [module]);
  return mounted;
}

/** Fetches deferred code once the browser is idle, so that a first click does not wait for it. */
function preloadWhenIdle(...modules: Array<{ preload: () => Promise<void> }>) {
  const run = () => modules.forEach((m) => void m.preload());
  if ('requestIdleCallback' in window) {
    const id = window.requestIdleCallback(run, { timeout: 5000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(run, 2000);
  return () => clearTimeout(id);
}

/**
 * A static section of a page (a long Portable Text body, a grid of cards, a table, the footer)
 * that React hydrates apart from the rest of the page (issue 43).
 *
 * React 18 leaves a Suspense boundary's server markup as it is while it hydrates the page around
 * it, and hydrates the boundary afterwards at a low priority, in its own render and commit; a tap
 * inside it before then hydrates that boundary first. So the header's menus and the hero answer
 * a tap once the shorter rest has hydrated, instead of after the whole body.
 *
 * Nothing in it suspends, so the server renders its children inline (between two empty comments,
 * `<!--$-->` and `<!--/$-->`, which change neither layout nor the accessibility tree) and the
 * fallback is never shown. It takes no props of its own, so it adds no element.
 */
export function HydrateLater({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
