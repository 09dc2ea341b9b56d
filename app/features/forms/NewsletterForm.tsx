import { useFetcher, useLocation, useSearchParams } from '@remix-run/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '~/kit';
import { useFormToken } from './form-token';
import { Honeypot } from './Honeypot';
import {
  FORM_PARAM,
  isNewsletterStatus,
  NEWSLETTER_ACTION,
  NEWSLETTER_FORM_FIELD,
  NEWSLETTER_JS_FIELD,
  NEWSLETTER_MESSAGES,
  NEWSLETTER_RETURN_FIELD,
  newsletterStatusOf,
  STATUS_PARAM,
  type NewsletterStatus,
} from './newsletter-status';
import { FORM_TOKEN_FIELD, MAX_LENGTH } from './fields';
import { PendingSubmitButton } from './PendingSubmitButton';

type FetcherData = { status: string; formError?: { titleKey: string; messageKey: string }; token?: string | null };

/**
 * Newsletter sign-up (footer and blog). Posts to /api/newsletter: with JavaScript through
 * a fetcher (JSON answer), without it as a plain form whose answer redirects back here
 * with the status in the URL. Ends in the subscribed state, which asks the visitor to confirm
 * from the email just sent (the sign-up is pending until then).
 */
/** regionLabel: the region's name when the page has another newsletter box (two landmarks must not share a name). */
export function NewsletterForm({
  formId = 'footer',
  tone = 'light',
  regionLabel,
}: {
  formId?: string;
  tone?: 'light' | 'dark';
  regionLabel?: string;
}) {
  const { t } = useT('forms');
  const fetcher = useFetcher<FetcherData>();
  const location = useLocation();
  const [params] = useSearchParams();
  const [hydrated, setHydrated] = useState(false);
  const uid = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const doneRef = useRef<HTMLDivElement>(null);
  useEffect(() => setHydrated(true), []);

  const urlStatus =
    params.get(FORM_PARAM) === formId && isNewsletterStatus(params.get(STATUS_PARAM))
      ? (params.get(STATUS_PARAM) as NewsletterStatus)
      : null;
  const status: NewsletterStatus | null = fetcher.data ? newsletterStatusOf(fetcher.data) : urlStatus;
  const submitting = fetcher.state === 'submitting';
  // After a plain post the page's address carries the token for the next try.
  const token = useFormToken(fetcher.data?.token || (urlStatus ? params.get(FORM_TOKEN_FIELD) : null));

  useEffect(() => {
    if (!fetcher.data || fetcher.state !== 'idle') return;
    if (newsletterStatusOf(fetcher.data) === 'subscribed') doneRef.current?.focus();
    else inputRef.current?.focus();
  }, [fetcher.data, fetcher.state]);

  // Back from a plain post: drop our parameters from the address bar (the message stays).
  useEffect(() => {
    if (!urlStatus) return;
    const url = new URL(window.location.href);
    url.searchParams.delete(STATUS_PARAM);
    url.searchParams.delete(FORM_PARAM);
    url.searchParams.delete(FORM_TOKEN_FIELD);
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  }, [urlStatus]);

  const dark = tone === 'dark';
  const sectionId = `newsletter-${formId}`;
  const headingId = `${uid}-title`;
  const inputId = `${uid}-email`;
  const errorId = `${uid}-error`;
  const message = status ? NEWSLETTER_MESSAGES[status] : null;
  const returnTo = location.pathname + location.search;

  return (
    <section
      id={sectionId}
      aria-label={regionLabel}
      aria-labelledby={regionLabel ? undefined : headingId}
      data-testid={`newsletter-${formId}`}
      data-state={submitting ? 'submitting' : (status ?? 'idle')}
      className="scroll-mt-8 md:scroll-mt-4"
    >
      <h2 id={headingId} className={`text-lg font-bold ${dark ? 'text-white' : 'text-navy-900'}`}>
        {t('newsletter.title')}
      </h2>
      {status === 'subscribed' ? (
        <div
          ref={doneRef}
          tabIndex={-1}
          role="status"
          className={`mt-3 rounded-lg p-4 outline-none ${dark ? 'bg-white/10 text-white' : 'border border-emerald-200 bg-emerald-50 text-navy-900'}`}
        >
          <p className="font-semibold">{t(NEWSLETTER_MESSAGES.subscribed.titleKey)}</p>
          <p className={dark ? 'text-white' : 'text-navy-700'}>{t(NEWSLETTER_MESSAGES.subscribed.messageKey)}</p>
          {/* Double opt-in: the sign-up counts once the address confirms (app/features/newsletter/). */}
          <p
            className={`mt-1 ${dark ? 'text-white' : 'text-navy-700'}`}
            data-testid={`newsletter-${formId}-check-email`}
          >
            {t('newsletter.checkEmail')}
          </p>
        </div>
      ) : (
        <>
          <p className={`mt-1 ${dark ? 'text-navy-100' : 'text-navy-700'}`}>{t('newsletter.text')}</p>
          <fetcher.Form method="post" action={NEWSLETTER_ACTION} noValidate className="@container relative mt-3">
            <Honeypot />
            <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
            <input type="hidden" name={NEWSLETTER_RETURN_FIELD} value={returnTo} />
            <input type="hidden" name={NEWSLETTER_FORM_FIELD} value={formId} />
            {hydrated && <input type="hidden" name={NEWSLETTER_JS_FIELD} value="1" />}
            <label htmlFor={inputId} className={`block text-sm font-medium ${dark ? 'text-white' : 'text-navy-900'}`}>
              {t('newsletter.emailLabel')}
            </label>
            {/* Field and button side by side only when the form itself is wide enough (a container query:
                in the blog sidebar a row left the placeholder cut off). */}
            <div className="mt-1 flex flex-col gap-2 @sm:flex-row">
              <input
                ref={inputRef}
                id={inputId}
                type="email"
                name="email"
                required
                autoComplete="email"
                dir="ltr"
                maxLength={MAX_LENGTH.email}
                placeholder={t('newsletter.emailPlaceholder')}
                aria-invalid={message ? true : undefined}
                aria-describedby={message ? errorId : undefined}
                className="block min-h-11 w-full min-w-0 flex-1 rounded-lg border border-navy-300 bg-white px-3 text-navy-900 placeholder:text-navy-400 focus:border-navy-500 aria-[invalid=true]:border-red-700 rtl:text-right"
              />
              <PendingSubmitButton
                pending={submitting}
                label={t('newsletter.subscribe')}
                pendingLabel={t('newsletter.subscribing')}
                shape="beside"
              />
            </div>
            <div
              id={errorId}
              role="alert"
              data-testid={`newsletter-${formId}-message`}
              className={`mt-2 text-sm font-medium ${dark ? 'text-red-200' : 'text-red-700'}`}
            >
              {message && (
                <>
                  <span className="font-bold">{t(message.titleKey)}</span> - <span>{t(message.messageKey)}</span>
                </>
              )}
            </div>
          </fetcher.Form>
        </>
      )}
    </section>
  );
}
