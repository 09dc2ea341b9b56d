import { useRouteLoaderData } from '@remix-run/react';
import type { loader } from '~/layouts/locale';

/**
 * The page shell's data (site settings, offices, services, form token…) for any component
 * below the locale layout. Lives apart from the layout so components the layout renders
 * can use it without an import cycle.
 */
export function useShell() {
  const en = useRouteLoaderData<typeof loader>('locale-en');
  const ar = useRouteLoaderData<typeof loader>('locale-ar');
  return (ar ?? en)!;
}
