import { useRouteLoaderData } from '@remix-run/react';
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
