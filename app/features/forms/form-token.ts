import { useMatches } from '@remix-run/react';

/**
 * The signed start time for the spam timer, issued by the page shell's loader
 * (app/layouts/locale.tsx, `conversion.formToken`) so every page's forms carry one, with
 * or without JavaScript.
 */
export function useFormToken(): string {
  const matches = useMatches();
  for (const m of matches) {
    if (m.id === 'locale-en' || m.id === 'locale-ar') {
      const token = (m.data as { conversion?: { formToken?: unknown } } | undefined)?.conversion?.formToken;
      if (typeof token === 'string') return token;
    }
  }
  return '';
}
