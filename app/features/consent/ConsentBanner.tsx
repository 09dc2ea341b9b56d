import { Link, useLocation } from '@remix-run/react';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type MouseEvent } from 'react';
import {
  CONSENT_ACTION_FIELD,
  CONSENT_BANNER_ID,
  CONSENT_JS_FIELD,
  CONSENT_RETURN_FIELD,
  CONSENT_SAVED_ANCHOR,
  type ConsentChoice,
  currentConsent,
  TaggedText,
  useLocalizePath,
  useRootData,
  useT,
} from '~/kit';
import { applyConsent, privacySignal } from './consent-client';

/** The id of the "Choose" panel: without JavaScript the "Choose" link targets it and CSS shows it. */
const CHOICES_ID = 'cookie-consent-choose';
/** A product's Latin name inside an Arabic sentence (`<en>Google Analytics</en>`): English, left to right. */
const latinName = { en: <span lang="en" dir="ltr" /> };

/**
 * Every control of the banner: the three answers have the same size, colour and weight, so that
 * refusing is as easy as accepting.
 */
const answerClass =
  'inline-flex min-h-11 min-w-0 flex-1 items-center justify-center rounded-full border-2 border-navy-900 bg-white px-3 py-2 text-sm font-semibold sm:min-w-32 sm:px-5 sm:text-base text-navy-900 hover:bg-navy-900 hover:text-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-500 sm:flex-none';

/**
 * The cookie banner (issue 42, ADR 0030): in every page's HTML, in the flow at the top of the page
 * (so it never covers anything and adds no layout shift), non-modal. Whether it shows is decided
 * in the browser, never by the server: <html data-consent="set">, set by the inline boot script
 * before the first paint when the consent cookie holds a choice under the current wording, hides
 * it (app/tailwind.css); without JavaScript it shows on every page, and hides after a choice is
 * posted (the answer returns to the page at #cookie-consent-saved, which CSS reads).
 * The buttons post a plain form to /api/consent; with JavaScript the post is sent in place and
 * the choice applied at once (consent-client.ts).
 */
export function ConsentBanner() {
  const { t } = useT();
  const localize = useLocalizePath();
  const root = useRootData();
  const location = useLocation();
  const titleId = useId();
  const [choosing, setChoosing] = useState(false);
  const [choice, setChoice] = useState<ConsentChoice>({ analytics: false, marketing: false });
  const [gpc, setGpc] = useState(false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const opener = useRef<HTMLElement | null>(null);

  // After hydration: the boxes show the choice kept in the cookie, and GPC is honoured.
  useEffect(() => {
    const stored = currentConsent(document.cookie);
    const signal = privacySignal();
    setGpc(signal);
    if (stored) setChoice({ analytics: stored.analytics, marketing: stored.marketing && !signal });
    const onOpen = (event: Event) => {
      opener.current = (event as CustomEvent<HTMLElement | null>).detail;
      const again = currentConsent(document.cookie);
      if (again) setChoice({ analytics: again.analytics, marketing: again.marketing && !privacySignal() });
    };
    window.addEventListener('consent:open', onOpen);
    return () => window.removeEventListener('consent:open', onOpen);
  }, []);

  const returnTo = location.pathname + location.search;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const form = new FormData(event.currentTarget, submitter);
    form.set(CONSENT_JS_FIELD, '1');
    setBusy(true);
    setFailed(false);
    try {
      const response = await fetch(event.currentTarget.action, { method: 'POST', body: form });
      if (!response.ok) throw new Error(String(response.status));
      const result = (await response.json()) as ConsentChoice;
      applyConsent(result, { gtmId: root?.gtmId ?? null, mode: root?.consentMode ?? 'basic' });
      setChoice(result);
      setChoosing(false);
      // The banner is gone: focus goes back where the visitor was (the footer link that
      // reopened it), else to the page's content.
      const back =
        opener.current && document.contains(opener.current) ? opener.current : document.getElementById('main');
      opener.current = null;
      back?.focus();
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  const toggleChoices = (event: MouseEvent | KeyboardEvent) => {
    event.preventDefault();
    setChoosing((open) => !open);
  };

  return (
    <section
      id={CONSENT_BANNER_ID}
      aria-labelledby={titleId}
      tabIndex={-1}
      data-testid="consent-banner"
      className="consent-banner border-b border-navy-100 bg-sand-50 outline-none focus-visible:ring-2 focus-visible:ring-gold-500"
    >
      <span id={CONSENT_SAVED_ANCHOR} />
      <form
        method="post"
        action="/api/consent"
        onSubmit={submit}
        className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-3 md:px-8 lg:flex-row lg:flex-wrap lg:items-center lg:gap-x-8"
      >
        <input type="hidden" name={CONSENT_RETURN_FIELD} value={returnTo} />
        <div className="min-w-0 flex-1 text-sm text-navy-800">
          <h2 id={titleId} className="text-base font-bold text-navy-900 max-sm:sr-only">
            {t('consent.title')}
          </h2>
          <p className="sm:mt-1">
            {t('consent.text')}{' '}
            <Link to={localize('/cookies-policy')} className="font-semibold underline underline-offset-4">
              {t('consent.policy')}
            </Link>
          </p>
          {gpc && (
            <p className="mt-1" data-testid="consent-gpc">
              {t('consent.gpc')}
            </p>
          )}
          {failed && (
            <p role="alert" className="mt-1 font-semibold text-red-700">
              {t('consent.error')}
            </p>
          )}
        </div>
        <div className="flex gap-2">
          <button type="submit" name={CONSENT_ACTION_FIELD} value="all" className={answerClass} disabled={busy}>
            {t('consent.acceptAll')}
          </button>
          <button type="submit" name={CONSENT_ACTION_FIELD} value="none" className={answerClass} disabled={busy}>
            {t('consent.rejectAll')}
          </button>
          {/* A link to the panel without JavaScript (CSS shows the panel it targets), a toggle with it. */}
          <a
            href={`#${CHOICES_ID}`}
            role="button"
            aria-expanded={choosing}
            aria-controls={CHOICES_ID}
            className={answerClass}
            onClick={toggleChoices}
            onKeyDown={(event) => event.key === ' ' && toggleChoices(event)}
          >
            {t('consent.choose')}
          </a>
        </div>
        <fieldset
          id={CHOICES_ID}
          data-open={choosing ? '' : undefined}
          className="consent-choices w-full lg:basis-full"
        >
          <legend className="sr-only">{t('consent.choose')}</legend>
          <ul className="grid gap-3 text-sm text-navy-800 md:grid-cols-3">
            <li className="rounded-xl border border-sand-200 bg-white p-3">
              <label className="flex items-start gap-2">
                <input type="checkbox" checked disabled className="mt-1 size-4" />
                <span>
                  <span className="font-semibold text-navy-900">{t('consent.necessary')}</span>{' '}
                  <span className="text-navy-700">({t('consent.alwaysOn')})</span>
                  <span className="block">{t('consent.necessaryText')}</span>
                </span>
              </label>
            </li>
            {(['analytics', 'marketing'] as const).map((category) => {
              // GPC refuses marketing: that box stays off and cannot be ticked.
              const blocked = category === 'marketing' && gpc;
              return (
                <li key={category} className="rounded-xl border border-sand-200 bg-white p-3">
                  <label className="flex items-start gap-2">
                    <input
                      type="checkbox"
                      name={category}
                      value="1"
                      checked={choice[category] && !blocked}
                      disabled={blocked}
                      onChange={(e) => setChoice((c) => ({ ...c, [category]: e.target.checked }))}
                      className="mt-1 size-4"
                    />
                    <span>
                      <span className="font-semibold text-navy-900">{t(`consent.${category}`)}</span>
                      <span className="block">
                        <TaggedText text={t(`consent.${category}Text`)} tags={latinName} />
                      </span>
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
          <button
            type="submit"
            name={CONSENT_ACTION_FIELD}
            value="choose"
            className={`${answerClass} mt-3`}
            disabled={busy}
          >
            {t('consent.save')}
          </button>
        </fieldset>
      </form>
    </section>
  );
}
