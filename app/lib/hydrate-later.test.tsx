// @vitest-environment jsdom
/**
 * HydrateLater: the server renders its children inline (two empty comments, no element), and the
 * browser hydrates them in a commit of their own after the rest of the page, so the rest answers
 * first; a click inside the section before then still reaches it.
 */
import { startTransition, useCallback, useEffect, useState, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { HydrateLater } from './deferred';

/** Macrotasks until `done` holds (React's scheduler yields through them), at most 2 s. */
async function until(done: () => boolean) {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(done()).toBe(true);
}

function Toggle({ testId, log }: { testId: string; log: string[] }) {
  const [on, setOn] = useState(false);
  // Attached in the commit that hydrates the button (a ref, as a layout effect would be, without
  // the server renderer's warning about those).
  const hydrated = useCallback(
    (element: HTMLElement | null) => void (element && log.push(`${testId} hydrated`)),
    [log, testId],
  );
  return (
    <button ref={hydrated} type="button" data-testid={testId} aria-pressed={on} onClick={() => setOn((o) => !o)}>
      {testId}
    </button>
  );
}

/** A page: a header whose passive effect reads what has hydrated so far, and a body section. */
type PageProps = { wrap: (body: ReactNode) => ReactNode; log: string[]; onHeader?: () => void };
function Page({ wrap, log, onHeader }: PageProps) {
  return (
    <>
      <Header log={log} onHeader={onHeader} />
      <main>
        {wrap(
          <section>
            <p>A long static body</p>
            <Toggle testId="in-body" log={log} />
          </section>,
        )}
      </main>
    </>
  );
}
function Header({ log, onHeader }: Omit<PageProps, 'wrap'>) {
  useEffect(() => void log.push(`header effects ran after: ${log.join(', ')}`), [log]);
  // Called in the commit that hydrates the header.
  const committed = useCallback((element: HTMLElement | null) => void (element && onHeader?.()), [onHeader]);
  return (
    <header ref={committed}>
      <Toggle testId="menu" log={log} />
    </header>
  );
}

async function hydratePage(wrap: PageProps['wrap'], onHeader?: () => void) {
  const log: string[] = [];
  const container = document.createElement('div');
  container.innerHTML = renderToString(<Page wrap={wrap} log={[]} />);
  document.body.replaceChildren(container);
  const recoverable = vi.fn();
  const serverHtml = container.innerHTML;
  startTransition(() => {
    hydrateRoot(container, <Page wrap={wrap} log={log} onHeader={onHeader} />, { onRecoverableError: recoverable });
  });
  return { container, log, recoverable, serverHtml };
}

describe('HydrateLater', () => {
  it('renders its children inline on the server: two empty comments, no element', () => {
    const inline = renderToString(<section>text</section>);
    expect(renderToString(<HydrateLater>{<section>text</section>}</HydrateLater>)).toBe(`<!--$-->${inline}<!--/$-->`);
  });

  it('hydrates its section after the rest of the page, in a commit of its own, with no mismatch', async () => {
    const { container, log, recoverable, serverHtml } = await hydratePage((body) => (
      <HydrateLater>{body}</HydrateLater>
    ));
    await until(() => log.includes('in-body hydrated'));
    // The header's commit (its passive effects) came before the body had hydrated at all.
    expect(log).toEqual(['menu hydrated', 'header effects ran after: menu hydrated', 'in-body hydrated']);
    expect(container.innerHTML).toBe(serverHtml);
    expect(recoverable).not.toHaveBeenCalled();
  });

  it('without it, the body hydrates in the same commit as the header (the control case)', async () => {
    const { log } = await hydratePage((body) => body);
    await until(() => log.length === 3);
    expect(log[2]).toBe('header effects ran after: menu hydrated, in-body hydrated');
  });

  it('a click in the section before it has hydrated hydrates it at once and reaches its handler', async () => {
    // Clicked as soon as the header's commit is done (a microtask). React's scheduler would go on
    // to hydrate the section in the same task while its 5 ms slice lasts: the header's commit
    // spends the slice (as a real page's long commit does), so the scheduler yields first. Should
    // it still hydrate the section before the click, a click tells nothing: the page is tried again.
    for (let attempt = 0; attempt < 20; attempt++) {
      let before: string[] = [];
      const clickBody = () => {
        const until = performance.now() + 20;
        while (performance.now() < until);
        queueMicrotask(() => {
          before = [...log];
          document.querySelector<HTMLButtonElement>('[data-testid="in-body"]')!.click();
        });
      };
      const { container, log, recoverable } = await hydratePage(
        (body) => <HydrateLater>{body}</HydrateLater>,
        clickBody,
      );
      const button = container.querySelector<HTMLButtonElement>('[data-testid="in-body"]')!;
      await until(() => log.includes('in-body hydrated'));
      if (before.includes('in-body hydrated')) continue;
      await until(() => button.getAttribute('aria-pressed') === 'true');
      expect(log).toContain('in-body hydrated');
      expect(container.querySelector('[data-testid="in-body"]')).toBe(button);
      expect(recoverable).not.toHaveBeenCalled();
      return;
    }
    expect.fail('the section hydrated before every click: nothing was clicked before it hydrated');
  });
});
