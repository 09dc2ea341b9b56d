import { useRouteLoaderData } from '@remix-run/react';
import { createContext } from 'react';
import type { Locale } from '~/i18n';
import type { ImageConfig } from '~/lib/image';

/**
 * The root route's data (app/root.tsx's loader), the same for every page. Components read it
 * here, through `useRootData()`, never from the root module: the root imports components, so a
 * component importing the root would make an import cycle.
 */
export type RootData = {
  i18n: { locale: Locale; version: string };
  gtmId: string | null;
  /** Google Consent Mode: basic (GTM only after consent) or advanced (ADR 0030). */
  consentMode: 'basic' | 'advanced';
  image: ImageConfig;
};

export function useRootData() {
  return useRouteLoaderData<RootData>('root');
}

/** The text of the head's inline scripts (app/lib/head-scripts.server.ts). */
export type HeadScripts = { consent: string | null; earlyTaps: string };

/**
 * How the root's layout gets that text: the server's document renderer provides the builder
 * (entry.server.tsx); in the browser there is none. The layout renders the same `<script>`
 * elements there, empty and with suppressHydrationWarning: React does not compare or replace an
 * element's innerHTML when it hydrates, and on the client nothing re-renders them with other
 * text, so the elements keep the server's scripts, which have already run.
 */
export const HeadScriptsContext = createContext<((root: RootData | undefined) => HeadScripts) | null>(null);
