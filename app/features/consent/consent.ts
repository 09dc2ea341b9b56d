/**
 * Cookie consent (issue 42, ADR 0030): the visitor's choice, the cookie that keeps it and
 * Google Consent Mode v2. Shared by the server (the /api/consent resource, the page's inline
 * boot script) and the browser (the banner). Pages are the same for every visitor (ADR 0010),
 * so nothing here is rendered per visitor: the inline boot script reads the cookie in the browser.
 */

/** The first-party cookie that keeps the choice (readable by scripts: the boot script reads it). */
export const CONSENT_COOKIE = 'cookie_consent';
/**
 * The version of the consent wording (banner and cookies policy). A cookie written under another
 * version is ignored, so changing this asks every visitor again. Only [0-9-] (it is written into
 * the boot script and the cookie as is).
 */
export const CONSENT_VERSION = '2026-11-29';
/** How long the choice is kept in the browser: six months, then the visitor is asked again. */
export const CONSENT_MAX_AGE_DAYS = 182;

/** `basic`: GTM is not loaded until consent (the default); `advanced`: it loads with everything denied. */
export type ConsentMode = 'basic' | 'advanced';

/** The optional categories; "necessary" is always on and never stored. */
export interface ConsentChoice {
  analytics: boolean;
  marketing: boolean;
}

export interface StoredConsent extends ConsentChoice {
  version: string;
  /** The pseudonymous id of this browser's choices (random; the database records it). */
  id: string;
}

/** `{version}.{a}{m}.{id}`, e.g. `2026-11-29.10.Ab3…`: a, m are 1 (granted) or 0. */
const COOKIE_VALUE = /^([0-9-]{1,20})\.([01])([01])\.([A-Za-z0-9]{16,40})$/;

export function parseConsentValue(value: string | null | undefined): StoredConsent | null {
  const match = COOKIE_VALUE.exec(value ?? '');
  if (!match) return null;
  return { version: match[1], analytics: match[2] === '1', marketing: match[3] === '1', id: match[4] };
}

export function consentValue(consent: StoredConsent): string {
  return `${consent.version}.${consent.analytics ? 1 : 0}${consent.marketing ? 1 : 0}.${consent.id}`;
}

/** The cookie's value in a Cookie header or `document.cookie`, or null. */
export function consentCookieOf(cookies: string | null | undefined): string | null {
  for (const part of (cookies ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === CONSENT_COOKIE) return rest.join('=');
  }
  return null;
}

/** The choice this browser made under the current wording, or null (none, or an older version). */
export function currentConsent(cookies: string | null | undefined): StoredConsent | null {
  const stored = parseConsentValue(consentCookieOf(cookies));
  return stored && stored.version === CONSENT_VERSION ? stored : null;
}

/** Global Privacy Control counts as a refusal of marketing, whatever was chosen. */
export function withPrivacySignal(choice: ConsentChoice, gpc: boolean): ConsentChoice {
  return { analytics: choice.analytics, marketing: choice.marketing && !gpc };
}

type ConsentState = 'granted' | 'denied';
export interface ConsentModeState {
  ad_storage: ConsentState;
  analytics_storage: ConsentState;
  ad_user_data: ConsentState;
  ad_personalization: ConsentState;
}

/** The Consent Mode v2 signals of a choice: analytics -> analytics_storage; marketing -> the three ad_*. */
export function consentModeState(choice: ConsentChoice): ConsentModeState {
  const state = (on: boolean): ConsentState => (on ? 'granted' : 'denied');
  return {
    ad_storage: state(choice.marketing),
    analytics_storage: state(choice.analytics),
    ad_user_data: state(choice.marketing),
    ad_personalization: state(choice.marketing),
  };
}

/** Whether the tag manager may be loaded for this choice in this mode. */
export function loadsTagManager(mode: ConsentMode, choice: ConsentChoice | null): boolean {
  return mode === 'advanced' || Boolean(choice && (choice.analytics || choice.marketing));
}

/**
 * The page's one inline script, in <head> before anything else runs (allowed by its hash, ADR
 * 0023; the same text for every visitor). It sets the Consent Mode v2 defaults (all denied) on
 * window.dataLayer before the tag manager can load; reads the consent cookie and, for the current
 * version, marks <html data-consent="set"> (which hides the banner before the first paint: no
 * flash, no layout shift) and sends the stored choice as a consent update (GPC turns marketing
 * off); and inserts gtm.js when allowed (advanced mode, or consent to a category in basic mode).
 * The browser's module (consent-client.ts) does the same steps for a choice made on the page;
 * consent.test.ts runs this text against it.
 */
export function consentBootScript(options: { gtmScriptUrl: string | null; mode: ConsentMode }): string {
  const { gtmScriptUrl, mode } = options;
  const load = gtmScriptUrl
    ? `if(${mode === 'advanced' ? 'true' : 'a||k'}){l.push({'gtm.start':Date.now(),event:'gtm.js'});` +
      `var s=d.createElement('script');s.async=true;s.src=${JSON.stringify(gtmScriptUrl).replace(/</g, '\\u003c')};` +
      `d.head.appendChild(s);w.__consentGtmLoaded=true}`
    : '';
  return (
    `(function(w,d){var l=w.dataLayer=w.dataLayer||[];function g(){l.push(arguments)}` +
    `g('consent','default',{ad_storage:'denied',analytics_storage:'denied',ad_user_data:'denied',ad_personalization:'denied'${mode === 'advanced' ? ',wait_for_update:500' : ''}});` +
    `var m=/(?:^|;\\s*)${CONSENT_COOKIE}=(${COOKIE_VALUE.source.slice(1, -1)})(?:;|$)/.exec(d.cookie),a=false,k=false;` +
    `if(m&&m[2]===${JSON.stringify(CONSENT_VERSION)}){a=m[3]==='1';k=m[4]==='1'&&navigator.globalPrivacyControl!==true;` +
    `d.documentElement.setAttribute('data-consent','set');` +
    `g('consent','update',{ad_storage:k?'granted':'denied',analytics_storage:a?'granted':'denied',ad_user_data:k?'granted':'denied',ad_personalization:k?'granted':'denied'})}` +
    `${load}})(window,document);`
  );
}

// --------------------------------------------------------------------------- the form's fields

/** The banner's form: which button was pressed (`all`, `none` or `choose`) and the two boxes. */
export const CONSENT_ACTION_FIELD = 'consent';
export const CONSENT_ACTIONS = ['all', 'none', 'choose'] as const;
export type ConsentAction = (typeof CONSENT_ACTIONS)[number];
export const CONSENT_RETURN_FIELD = 'return_to';
/** Sent by the banner's script: answer JSON instead of redirecting. */
export const CONSENT_JS_FIELD = '_js';
/** The anchor a form post without JavaScript returns to: the banner hides itself on it (CSS :target). */
export const CONSENT_SAVED_ANCHOR = 'cookie-consent-saved';
export const CONSENT_BANNER_ID = 'cookie-consent';

/** The choice a post asks for, or null when the post is not one of the three buttons. */
export function choiceOfForm(form: FormData): { action: ConsentAction; choice: ConsentChoice } | null {
  const action = form.get(CONSENT_ACTION_FIELD);
  if (action === 'all') return { action, choice: { analytics: true, marketing: true } };
  if (action === 'none') return { action, choice: { analytics: false, marketing: false } };
  if (action === 'choose') {
    const box = (name: string) => {
      const value = form.get(name);
      return value === '1' ? true : value === null ? false : null;
    };
    const analytics = box('analytics');
    const marketing = box('marketing');
    if (analytics === null || marketing === null) return null;
    return { action, choice: { analytics, marketing } };
  }
  return null;
}
