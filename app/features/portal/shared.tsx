import { forwardRef, useEffect, useMemo, useRef } from 'react';
import { intlLocale } from '~/i18n';
import { useLocale, useT } from '~/lib/locale';
import { hint, input, label } from './ui';

/** A message from the server, by portal.json key (see PortalMessage in app/portal/service.server.ts). */
export interface UiMessage {
  kind: 'success' | 'error';
  key: string;
  values?: Record<string, string>;
}

/** Dates as the portal shows them: long style, in the page's language, the UTC calendar day. */
export function useFormatDate() {
  const locale = useLocale();
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: 'long', timeZone: 'UTC' });
    return (iso: string) => format.format(new Date(iso));
  }, [locale]);
}

/**
 * The outcome of a POST, in a live region. When a new message arrives (JavaScript on), focus
 * moves to it, so keyboard and screen-reader users land on what happened.
 */
export function MessageBanner({
  message,
  testId = 'portal-message',
  focusRef,
}: {
  message: UiMessage | null | undefined;
  testId?: string;
  focusRef?: React.RefObject<HTMLDivElement>;
}) {
  const { t } = useT('portal');
  const own = useRef<HTMLDivElement>(null);
  const ref = focusRef ?? own;
  useEffect(() => {
    if (message) ref.current?.focus();
  }, [message, ref]);
  return (
    <div aria-live="polite" aria-atomic="true">
      {message && (
        <div
          ref={ref}
          tabIndex={-1}
          role={message.kind === 'error' ? 'alert' : 'status'}
          data-testid={testId}
          data-kind={message.kind}
          className={`rounded-xl border p-4 font-medium outline-none focus-visible:outline-3 focus-visible:outline-gold-500 ${
            message.kind === 'error'
              ? 'border-red-300 bg-red-50 text-red-800'
              : 'border-emerald-300 bg-emerald-50 text-emerald-900'
          }`}
        >
          {t(message.key, message.values ?? {})}
        </div>
      )}
    </div>
  );
}

/** A form field's error text, tied to its input by id (aria-describedby). */
export function FieldError({ id, children }: { id: string; children: React.ReactNode }) {
  return (
    <p id={id} className="mt-1 text-sm font-medium text-red-700" data-testid={`error-${id}`}>
      {children}
    </p>
  );
}

/** aria-describedby from a list of ids that may be absent. */
export const describedBy = (...ids: (string | false | null | undefined)[]) =>
  ids.filter(Boolean).join(' ') || undefined;

/*
 * No field of the portal (these, the checkout's) has a `maxlength` or anything else that changes
 * what is typed or pasted: `maxlength` silently cuts a paste (a code pasted as "123 456" became
 * "123 45", a wrong try), and a script or a re-render must never rewrite a value. The server reads
 * what was posted (separators, other digits: app/lib/digits.ts) and answers what it cannot take
 * with a message at the field, the value left as it was.
 */

/**
 * The address field of a sign-in form (the client portal's and the Studio editors'): its label,
 * the input and, when refused, its error (`{id}-error`, which the input names).
 */
export const EmailField = forwardRef<
  HTMLInputElement,
  { id: string; label: string; error?: string | null; defaultValue?: string }
>(function EmailField({ id, label: text, error, defaultValue = '' }, ref) {
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className={label}>
        {text}
      </label>
      <input
        ref={ref}
        id={id}
        name="email"
        type="email"
        inputMode="email"
        autoComplete="email"
        required
        dir="ltr"
        defaultValue={defaultValue}
        aria-invalid={!!error || undefined}
        aria-describedby={describedBy(error && errorId)}
        className={`${input} mt-1 rtl:text-right`}
      />
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
});

/**
 * The 6-digit code field of a sign-in form (portal and Studio editors): label, hint (`{id}-hint`),
 * the input, and its error (`{id}-error`) when the code was wrong.
 */
export const CodeField = forwardRef<
  HTMLInputElement,
  { id: string; label: string; hint: string; error?: string | null }
>(function CodeField({ id, label: text, hint: hintText, error }, ref) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={id} className={label}>
        {text}
      </label>
      <p id={hintId} className={`${hint} mt-1`}>
        {hintText}
      </p>
      <input
        ref={ref}
        id={id}
        name="code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        dir="ltr"
        aria-invalid={!!error || undefined}
        aria-describedby={describedBy(hintId, error && errorId)}
        className={`${input} mt-2 max-w-[12rem] text-center text-2xl font-semibold tracking-[0.4em] tabular-nums`}
      />
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
});
