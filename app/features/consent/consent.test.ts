import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  choiceOfForm,
  CONSENT_VERSION,
  consentBootScript,
  consentModeState,
  consentValue,
  currentConsent,
  parseConsentValue,
} from './consent';

const ID = 'AbCdEfGhIjKlMnOpQrSt12';
const GTM = 'https://www.googletagmanager.com/gtm.js?id=GTM-TEST123';

/** Runs the boot script as a browser would, with this cookie and GPC setting; returns what it did. */
function boot(options: { cookie: string; gpc?: boolean; mode?: 'basic' | 'advanced'; gtm?: string | null }) {
  const inserted: string[] = [];
  const attributes: Record<string, string> = {};
  const window: Record<string, unknown> = {};
  const document = {
    cookie: options.cookie,
    documentElement: { setAttribute: (k: string, v: string) => (attributes[k] = v) },
    createElement: () => ({}) as { src?: string },
    head: { appendChild: (s: { src: string }) => inserted.push(s.src) },
  };
  runInNewContext(
    consentBootScript({ gtmScriptUrl: options.gtm === undefined ? GTM : options.gtm, mode: options.mode ?? 'basic' }),
    {
      window,
      document,
      navigator: { globalPrivacyControl: options.gpc ?? false },
      Date,
    },
  );
  const layer = (window.dataLayer as unknown[]).map((entry) =>
    entry && typeof entry === 'object' && 'length' in entry ? Array.from(entry as ArrayLike<unknown>) : entry,
  );
  return { inserted, attributes, layer };
}

const denied = consentModeState({ analytics: false, marketing: false });

describe('the consent cookie', () => {
  it('round-trips and ignores anything else', () => {
    const stored = { version: CONSENT_VERSION, analytics: true, marketing: false, id: ID };
    expect(parseConsentValue(consentValue(stored))).toEqual(stored);
    for (const bad of [
      '',
      'x',
      `${CONSENT_VERSION}.12.${ID}`,
      `${CONSENT_VERSION}.10.short`,
      `${CONSENT_VERSION}.10.${ID};x`,
    ])
      expect(parseConsentValue(bad)).toBeNull();
  });
  it('a choice under an older wording is no choice (the visitor is asked again)', () => {
    expect(currentConsent(`lng=x; cookie_consent=2020-01-01.11.${ID}`)).toBeNull();
    expect(currentConsent(`lng=x; cookie_consent=${CONSENT_VERSION}.11.${ID}`)?.analytics).toBe(true);
  });
});

describe('the boot script', () => {
  it('without a choice: defaults all denied, no GTM in basic mode, the banner stays', () => {
    const run = boot({ cookie: '' });
    expect(run.layer).toEqual([['consent', 'default', denied]]);
    expect(run.inserted).toEqual([]);
    expect(run.attributes).toEqual({});
  });
  it('advanced mode loads GTM with everything denied', () => {
    const run = boot({ cookie: '', mode: 'advanced' });
    expect(run.layer[0]).toEqual(['consent', 'default', { ...denied, wait_for_update: 500 }]);
    expect(run.inserted).toEqual([GTM]);
  });
  it('a current choice: the defaults, then the update, then GTM; the banner is hidden', () => {
    const run = boot({ cookie: `cookie_consent=${CONSENT_VERSION}.11.${ID}` });
    expect(run.layer[0]).toEqual(['consent', 'default', denied]);
    expect(run.layer[1]).toEqual(['consent', 'update', consentModeState({ analytics: true, marketing: true })]);
    expect(run.layer[2]).toMatchObject({ event: 'gtm.js' });
    expect(run.inserted).toEqual([GTM]);
    expect(run.attributes).toEqual({ 'data-consent': 'set' });
  });
  it('a refusal: the update denies everything and GTM stays out', () => {
    const run = boot({ cookie: `cookie_consent=${CONSENT_VERSION}.00.${ID}` });
    expect(run.layer[1]).toEqual(['consent', 'update', denied]);
    expect(run.inserted).toEqual([]);
    expect(run.attributes).toEqual({ 'data-consent': 'set' });
  });
  it('GPC refuses marketing even when it was accepted', () => {
    const run = boot({ cookie: `cookie_consent=${CONSENT_VERSION}.01.${ID}`, gpc: true });
    expect(run.layer[1]).toEqual(['consent', 'update', denied]);
    expect(run.inserted).toEqual([]);
  });
  it('an older version is ignored', () => {
    const run = boot({ cookie: `cookie_consent=2020-01-01.11.${ID}` });
    expect(run.layer).toHaveLength(1);
    expect(run.inserted).toEqual([]);
  });
  it('without GTM_ID nothing is inserted', () => {
    expect(boot({ cookie: `cookie_consent=${CONSENT_VERSION}.11.${ID}`, gtm: null }).inserted).toEqual([]);
  });
});

describe('the form', () => {
  const form = (entries: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(entries)) f.set(k, v);
    return f;
  };
  it('reads the three answers', () => {
    expect(choiceOfForm(form({ consent: 'all' }))?.choice).toEqual({ analytics: true, marketing: true });
    expect(choiceOfForm(form({ consent: 'none', analytics: '1' }))?.choice).toEqual({
      analytics: false,
      marketing: false,
    });
    expect(choiceOfForm(form({ consent: 'choose', analytics: '1' }))?.choice).toEqual({
      analytics: true,
      marketing: false,
    });
  });
  it('refuses anything else', () => {
    expect(choiceOfForm(form({}))).toBeNull();
    expect(choiceOfForm(form({ consent: 'yes' }))).toBeNull();
    expect(choiceOfForm(form({ consent: 'choose', analytics: 'on' }))).toBeNull();
  });
});
