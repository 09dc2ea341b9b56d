/**
 * Runs a route's loader or action the way Remix does, without a browser or a server: the routes
 * go into `createRemixStub` (from @remix-run/testing), which matches the URL, passes the params,
 * runs the loader (or the action of a form submission) and renders the route's component or, for
 * a thrown response, its error boundary. Needs the jsdom environment (`// @vitest-environment jsdom`).
 */
import { createRemixStub } from '@remix-run/testing';
import { act, type ComponentProps } from 'react';
import { createRoot } from 'react-dom/client';

declare global {
  // Tells React that updates are wrapped in act() (no warning on every render).
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

type Routes = Parameters<typeof createRemixStub>[0];

/** Renders `routes` at `url` and waits until the page (or its error boundary) shows `done`. */
export async function renderRoute(routes: Routes, url: string, done = '[data-done]'): Promise<HTMLElement> {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true;
  const Stub = createRemixStub(routes);
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  const props: ComponentProps<typeof Stub> = { initialEntries: [url] };
  await act(async () => root.render(<Stub {...props} />));
  for (let waited = 0; !container.querySelector(done); waited += 10) {
    if (waited > 20_000) throw new Error(`${url} did not render ${done}: ${container.innerHTML}`);
    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
  }
  return container;
}
