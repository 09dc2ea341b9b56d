import { tagManagerSnippet } from '~/lib/analytics';
import { consentModeState, loadsTagManager, withPrivacySignal, type ConsentChoice, type ConsentMode } from './consent';

/**
 * A choice made on the page, applied at once in the browser: the same steps as the inline boot
 * script (consent.ts, consentBootScript) takes for a stored choice, for the page already shown.
 */

type ConsentWindow = Window & { dataLayer?: unknown[]; __consentGtmLoaded?: boolean };

/** Whether the browser sends Global Privacy Control. */
export function privacySignal(): boolean {
  return (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
}

/** gtag(): Consent Mode commands must reach the data layer as an `arguments` object, as Google's snippet pushes them. */
function gtag(..._args: unknown[]) {
  const w = window as ConsentWindow;
  w.dataLayer = w.dataLayer ?? [];
  // eslint-disable-next-line prefer-rest-params -- gtm.js reads commands only from an Arguments object
  w.dataLayer.push(arguments);
}

/** Sends the choice to Consent Mode, hides the banner, and loads the tag manager if now allowed. */
export function applyConsent(choice: ConsentChoice, settings: { gtmId: string | null; mode: ConsentMode }) {
  const effective = withPrivacySignal(choice, privacySignal());
  gtag('consent', 'update', consentModeState(effective));
  document.documentElement.setAttribute('data-consent', 'set');
  const w = window as ConsentWindow;
  const gtm = tagManagerSnippet(settings.gtmId);
  if (gtm && !w.__consentGtmLoaded && loadsTagManager(settings.mode, effective)) {
    w.__consentGtmLoaded = true;
    w.dataLayer!.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
    const script = document.createElement('script');
    script.async = true;
    script.src = gtm.scriptUrl;
    document.head.appendChild(script);
  }
}
