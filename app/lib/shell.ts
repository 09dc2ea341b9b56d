import { useRouteLoaderData } from '@remix-run/react';
import type { LogoImages } from '~/lib/logo.server';
import type { Locale } from '~/i18n';
import { layoutRouteIds } from '~/route-table.js';
import type { Shell } from '~/sanity/queries/shell';
import type { Perspective } from '~/sanity/types';

/**
 * The page shell's data: what the locale layout's loader (app/layouts/locale.tsx) returns for
 * every page below it. Components read it here, through `useShell()` (meta functions through
 * `layoutFromMatches()` in lib/meta.ts), never from the layout module: this module imports no
 * component and no component imports the layout, so the shell makes no import cycle.
 */
export type ShellData = {
  locale: Locale;
  /** Header and footer content (site settings, offices, services) in the page's language. */
  shell: Shell;
  /** The logo's images and JSON-LD URL, built on the server (app/lib/logo.server.ts); null without a logo. */
  logo: LogoImages | null;
  siteUrl: string;
  /** The preview perspective of an editor's session, null for visitors. */
  preview: Perspective | null;
  /** The visual editing overlays' bundle (its URL), for a preview session only: null for visitors. */
  overlays: string | null;
  conversion: {
    /** The signed start time of the forms' spam timer. */
    showTestBookingLink: boolean;
  };
  /** Ids of documents shown in English because their translation is missing. */
  englishFallbacks: string[];
  /** The forms' page token: a signed render time, the same for every visitor of this cached page (ADR 0021). */
  formToken: string;
};

const shellRouteIds: readonly string[] = Object.values(layoutRouteIds);

/** Whether a route id is one of the two locale layouts' (the routes that load the shell). */
export function isShellRoute(routeId: string): boolean {
  return shellRouteIds.includes(routeId);
}

/** The page shell's data for any component rendered below the locale layout. */
export function useShell(): ShellData {
  const en = useRouteLoaderData<ShellData>(layoutRouteIds.en);
  const ar = useRouteLoaderData<ShellData>(layoutRouteIds.ar);
  return (ar ?? en)!;
}
