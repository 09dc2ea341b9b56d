import { consentBootScript } from '~/features/consent/consent';
import { tagManagerSnippet } from '~/lib/analytics';
import { earlyTapsScript } from '~/lib/early-taps-script.server';
import type { HeadScripts, RootData } from '~/lib/root-data';

/**
 * The head's two inline scripts for a page (root.tsx): Consent Mode's boot script with the tag
 * manager as configured (ADR 0030) and the early taps' listener (app/lib/early-taps.ts). Built
 * here, on the server only: the browser keeps the elements the server sent (they ran before
 * React started), so their text need not be in every page's scripts (issue 43, goal 4).
 */
export function headScripts(root: RootData | undefined): HeadScripts {
  // No root data (its loader failed): no configuration to boot the consent script with.
  const gtm = root && tagManagerSnippet(root.gtmId);
  return {
    consent: root ? consentBootScript({ gtmScriptUrl: gtm?.scriptUrl ?? null, mode: root.consentMode }) : null,
    earlyTaps: earlyTapsScript,
  };
}
