// A key pressed while the page starts to hydrate must not stop it hydrating (React's minified
// error #345, "Root did not complete", seen once in CI in verify-autofill.spec.ts): a discrete event
// (a key, a tap) before React's first render makes React hydrate the root synchronously, and
// Remix's first render suspended until it had decoded the page's data, which a synchronous render
// may not do in React 18. The page then stayed server-rendered. app/entry.client.tsx now has the
// data decoded before it hydrates (ADR 0034, "A key pressed as hydration starts").
// The sign-in form of /account: a field in the page's shell, with the deferred widgets (ADR 0012)
// and the footer hydrated apart (HydrateLater) around it, on a CPU 4 times slower, as a phone's.
// verify-autofill.spec.ts types a code with real keys while the page hydrates (and checks for page
// errors too); a person's key lands in the gap only now and then, so this test makes one land in it.
import { expect, test, type Page } from '@playwright/test';
import { at, holdHydration, hydrated, LOCALES } from './helpers';

/** What the page threw, and what React reported (its recoverable hydration errors, #418, #423, are reported as page errors). */
function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /React error|hydrat/i.test(message.text())) errors.push(message.text());
  });
  return errors;
}

async function slowCpu(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

/**
 * A key pressed on the focused field at the moment React starts to hydrate: right after
 * `hydrateRoot()` has added React's listeners to the document (it marks the document first), before
 * React's first render, which is a task of its own. A person's key lands in that gap only now and
 * then (about 1 in 3 page loads here when typing began as the scripts arrived); this lands in it
 * every time.
 */
async function pressAsHydrationStarts(page: Page) {
  await page.addInitScript(() => {
    const add = document.addEventListener.bind(document);
    let pressed = false;
    document.addEventListener = ((...args: Parameters<typeof add>) => {
      if (!pressed && Object.keys(document).some((key) => key.startsWith('_reactListening'))) {
        pressed = true;
        queueMicrotask(() =>
          document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key: '1', bubbles: true })),
        );
      }
      return add(...args);
    }) as typeof document.addEventListener;
  });
}

for (const locale of LOCALES) {
  test(`a key pressed as hydration starts: the page hydrates, without an error, and keeps what is typed (${locale})`, async ({
    page,
  }) => {
    const errors = collectErrors(page);
    await slowCpu(page);
    await pressAsHydrationStarts(page);
    const release = await holdHydration(page);
    await page.goto(at(locale, '/account'));
    const field = page.locator('main input[name="email"]');
    await field.focus();
    release();
    await field.pressSequentially('client@example.com', { delay: 40 });
    const didHydrate = await hydrated(page).then(
      () => true,
      () => false,
    );
    // The error first: without the fix, #345 (and the page never hydrates).
    expect(errors).toEqual([]);
    expect(didHydrate).toBe(true);
    await expect(field).toHaveValue('client@example.com');
  });
}
