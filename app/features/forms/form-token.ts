import { useShell } from '~/lib/shell';

/**
 * The signed start time for the spam timer, issued by the page shell's loader
 * (app/layouts/locale.tsx, `conversion.formToken`) so every page's forms carry one, with
 * or without JavaScript.
 */
export function useFormToken(): string {
  return useShell()?.conversion.formToken ?? '';
}
