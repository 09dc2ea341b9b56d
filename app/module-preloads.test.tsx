// Remix's <Scripts> is patched (patches/@remix-run+react+*.patch): its module preloads carry
// the nonce it is given, which the Content-Security-Policy's 'strict-dynamic' requires (ADR 0009,
// ADR 0013 addendum), and ask for low priority, so the stylesheet, the fonts and the first image
// come first (ADR 0014). A reinstall without the patch fails here.
import { Scripts } from '@remix-run/react';
import { createRemixStub } from '@remix-run/testing';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';

describe("Remix's module preloads", () => {
  it("carry the page's nonce and are fetched at low priority", () => {
    // The stub's router uses a layout effect, which React reports when rendering on the server.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const Stub = createRemixStub([{ path: '/', Component: () => <Scripts nonce="n0nce-of-this-page" /> }]);
    const html = renderToString(<Stub initialEntries={['/']} />);
    quiet.mockRestore();
    const preloads = html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
    expect(preloads.length).toBeGreaterThan(0);
    for (const tag of preloads) {
      expect(tag).toContain('nonce="n0nce-of-this-page"');
      expect(tag).toContain('fetchpriority="low"');
    }
  });
});
