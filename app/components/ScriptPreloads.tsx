import { UNSAFE_RemixContext, useMatches } from '@remix-run/react';
import { useContext, useState } from 'react';
import type { Locale } from '~/i18n';
import { keyFileUrl } from '~/lib/i18n-backend';

// React 18 does not know the camel-case prop; the lowercase attribute is written as is.
const LOW = { fetchpriority: 'low' };

/**
 * What the page needs before it can hydrate, asked for from the <head> while the browser is still
 * reading the page (ADR 0022): every module Remix's <Scripts> imports (the entry, its chunks, each
 * matched route and its chunks) and the page language's key file, which app/entry.client.tsx
 * fetches before it hydrates (otherwise one more round trip after the scripts have run).
 *
 * Remix's <Scripts> lists the same modules as module preloads, but at the end of the body, so they
 * were only requested once the browser had read the whole page. These come first and at low
 * priority, below the stylesheet, the fonts and the first image that the first paint needs. A
 * module preload fetches as not parser-inserted, so the policy's 'strict-dynamic' lets it through
 * without a nonce (ADR 0023; tests/e2e/security-headers.spec.ts checks that none is refused).
 *
 * The list comes from the same manifest as Remix's (`UNSAFE_RemixContext`, its exported context)
 * and is worked out once: the hydrating render gives the same tags as the server's, and client
 * navigations leave the head alone.
 */
export function ScriptPreloads({ locale, i18nVersion }: { locale: Locale; i18nVersion: string | undefined }) {
  const remix = useContext(UNSAFE_RemixContext);
  const matches = useMatches();
  const [modules] = useState(() => {
    // Outside Remix (a component test) there is nothing to preload.
    if (!remix) return [];
    const { manifest } = remix;
    const routes = matches.map((match) => manifest.routes[match.id]).filter((route) => route !== undefined);
    return [
      ...new Set([
        manifest.entry.module,
        ...manifest.entry.imports,
        ...routes.flatMap((route) => [...(route.imports ?? []), route.module]),
      ]),
    ];
  });
  // The first page's language, kept: a switch of language loads the other file through i18next,
  // and a new href here would only fetch it a second time.
  const [keyFile] = useState(() => i18nVersion && keyFileUrl(locale, i18nVersion));
  return (
    <>
      {modules.map((href) => (
        <link key={href} rel="modulepreload" href={href} {...LOW} />
      ))}
      {keyFile && (
        <link
          rel="preload"
          as="fetch"
          // The same request app/lib/i18n-backend.ts makes (same URL, CORS mode, credentials).
          href={keyFile}
          crossOrigin="anonymous"
          {...LOW}
        />
      )}
    </>
  );
}
