// @vitest-environment jsdom
/**
 * deferred(): the server renders the component whole; the browser keeps that markup on screen
 * while the component's code loads, then hydrates it, and a re-render of the parent meanwhile
 * does not throw the markup away.
 */
import { act, useState } from 'react';
import { hydrateRoot, createRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred } from './deferred';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount((c) => c + 1)}>
      {label} {count}
    </button>
  );
}

/** A module load that the test settles. */
function controlledLoad() {
  let settle!: { resolve: () => void; reject: (e: Error) => void };
  const promise = new Promise<typeof Counter>((resolve, reject) => {
    settle = { resolve: () => resolve(Counter), reject };
  });
  return { load: () => promise, settle };
}

/** The server's instance: created without a document, so its module is loaded at once. */
async function serverHtml(element: (C: ReturnType<typeof deferred<{ label: string }>>) => React.ReactNode) {
  vi.stubGlobal('document', undefined);
  const OnServer = deferred('counter', async () => Counter);
  vi.unstubAllGlobals();
  await Promise.resolve();
  await Promise.resolve();
  return renderToString(element(OnServer));
}

const flush = () => act(async () => {});

afterEach(() => {
  document.body.innerHTML = '';
  delete document.documentElement.dataset.deferredLoading;
});

describe('deferred', () => {
  it('is rendered whole on the server, with no fallback in its place', async () => {
    const html = await serverHtml((C) => <C label="Clicks" />);
    // A completed Suspense boundary (<!--$-->), not a pending or client-rendered one (<!--$?-->, <!--$!-->).
    expect(html).toBe('<!--$--><button type="button">Clicks<!-- --> <!-- -->0</button><!--/$-->');
  });

  it('keeps the server markup while its code loads, across a re-render of the parent, then hydrates it', async () => {
    let rerender!: () => void;
    const { load, settle } = controlledLoad();
    const OnClient = deferred('counter', load);
    function Page({ C }: { C: typeof OnClient }) {
      const [n, setN] = useState(0);
      rerender = () => setN((x) => x + 1);
      return (
        <main data-n={n}>
          <C label="Clicks" />
        </main>
      );
    }
    function ServerPage({ C }: { C: typeof OnClient }) {
      return (
        <main data-n={0}>
          <C label="Clicks" />
        </main>
      );
    }
    const container = document.createElement('div');
    container.innerHTML = await serverHtml((C) => <ServerPage C={C} />);
    document.body.append(container);
    const recoverable = vi.fn();

    await act(async () => {
      hydrateRoot(container, <Page C={OnClient} />, { onRecoverableError: recoverable });
    });
    const button = container.querySelector('button')!;
    expect(button.textContent).toBe('Clicks 0');
    expect(document.documentElement.dataset.deferredLoading).toBe('counter');

    // The parent changes before the code is there: the server markup stays (no client render).
    await act(async () => rerender());
    expect(container.querySelector('main')!.dataset.n).toBe('1');
    expect(container.querySelector('button')).toBe(button);

    await act(async () => settle.resolve());
    await flush();
    expect(document.documentElement.dataset.deferredLoading).toBeUndefined();
    // Hydrated: the very same element now answers clicks.
    expect(container.querySelector('button')).toBe(button);
    await act(async () => button.click());
    expect(button.textContent).toBe('Clicks 1');
    expect(recoverable).not.toHaveBeenCalled();
  });

  it('mounted on demand, shows nothing until its code is there', async () => {
    const { load, settle } = controlledLoad();
    const OnDemand = deferred('dialog', load);
    const container = document.createElement('div');
    const root = createRoot(container);
    await act(async () => root.render(<OnDemand label="Open" />));
    expect(container.innerHTML).toBe('');
    await act(async () => settle.resolve());
    await flush();
    expect(container.textContent).toBe('Open 0');
    await act(async () => root.unmount());
  });

  it('code that cannot be fetched leaves the widget out, not the page, and stops counting as loading', async () => {
    const { load, settle } = controlledLoad();
    const Broken = deferred('broken', load);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const container = document.createElement('div');
    const root = createRoot(container);
    await act(async () =>
      root.render(
        <p>
          text <Broken label="x" />
        </p>,
      ),
    );
    expect(document.documentElement.dataset.deferredLoading).toBe('broken');
    await act(async () => settle.reject(new Error('chunk failed')));
    await flush();
    expect(container.textContent).toBe('text ');
    expect(document.documentElement.dataset.deferredLoading).toBeUndefined();
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
    await act(async () => root.unmount());
  });
});
