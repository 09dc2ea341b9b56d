import { Form, Link, useActionData, useLocation, useNavigation } from '@remix-run/react';
import { useEffect, useId, useRef } from 'react';
import { useT } from '~/lib/locale';
import { ErrorAlert } from './ErrorAlert';
import type { FaqActionData } from './faq-question.server';
import { useFormToken } from './form-token';
import { Honeypot } from './Honeypot';
import { PendingSubmitButton } from './PendingSubmitButton';
import { FORM_TOKEN_FIELD, MAX_LENGTH, type FaqField } from './fields';

const FIELDS: { name: FaqField; type: 'text' | 'email' | 'tel' | 'textarea'; autoComplete: string; ltr?: boolean }[] = [
  { name: 'name', type: 'text', autoComplete: 'name' },
  { name: 'email', type: 'email', autoComplete: 'email', ltr: true },
  { name: 'phone', type: 'tel', autoComplete: 'tel', ltr: true },
  { name: 'question', type: 'textarea', autoComplete: 'off' },
];

/** The form's section: a post without JavaScript returns to it. */
export const FAQ_FORM_ANCHOR = 'ask-a-question';

/**
 * The FAQ question form (docs/requirements.md#forms): a Remix <Form> posting to the FAQ
 * page's action, so it works without JavaScript. States: idle, submitting, submitted
 * (with 'ask another question', a plain link back to the page) and error/rejected
 * (a summary plus each field's message, tied to its input).
 */
export function FaqQuestionForm() {
  const { t } = useT('forms');
  const result = useActionData<FaqActionData>();
  const navigation = useNavigation();
  const location = useLocation();
  const uid = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const doneRef = useRef<HTMLDivElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);

  const submitting =
    navigation.state === 'submitting' &&
    navigation.formMethod === 'POST' &&
    navigation.formAction?.split('#')[0] === location.pathname;
  const failed = result && result.status !== 'submitted' ? result : null;
  const token = useFormToken(failed?.token);

  // Move focus to the outcome after a submission (JavaScript on; without it the page
  // loads afresh and the alert is read out).
  useEffect(() => {
    if (!result) return;
    if (result.status === 'submitted') doneRef.current?.focus();
    else {
      const first = (['name', 'email', 'phone', 'question'] as const).find((f) => result.fieldErrors[f]);
      const el = first ? formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`) : summaryRef.current;
      el?.focus();
    }
  }, [result]);

  const headingId = `${uid}-title`;
  if (result?.status === 'submitted') {
    return (
      <section
        id={FAQ_FORM_ANCHOR}
        aria-labelledby={headingId}
        data-testid="faq-form"
        data-state="submitted"
        className="scroll-mt-8 rounded-2xl md:scroll-mt-4 border border-emerald-200 bg-emerald-50 p-6"
      >
        <div ref={doneRef} tabIndex={-1} role="status" className="outline-none">
          <h2 id={headingId} className="text-xl font-bold text-navy-900">
            {t('faq.submittedTitle')}
          </h2>
          <p className="mt-2 text-navy-700">{t('faq.submittedText')}</p>
        </div>
        <Link
          to={location.pathname}
          preventScrollReset
          replace
          className="mt-4 inline-flex min-h-11 items-center rounded-full bg-navy-900 px-5 font-semibold text-white hover:bg-navy-800"
        >
          {t('faq.askAnother')}
        </Link>
      </section>
    );
  }

  const errorOf = (f: FaqField) => failed?.fieldErrors[f];
  const input =
    'block min-h-11 w-full rounded-lg border border-navy-300 bg-white px-3 py-2 text-navy-900 placeholder:text-navy-400 focus:border-navy-500 aria-[invalid=true]:border-red-700';
  return (
    <section
      id={FAQ_FORM_ANCHOR}
      aria-labelledby={headingId}
      data-testid="faq-form"
      data-state={submitting ? 'submitting' : failed ? failed.status : 'idle'}
      className="scroll-mt-8 rounded-2xl md:scroll-mt-4 border border-navy-100 bg-white p-6 shadow-sm"
    >
      <h2 id={headingId} className="text-xl font-bold text-navy-900">
        {t('faq.title')}
      </h2>
      <Form
        ref={formRef}
        method="post"
        // The answer of a plain post (JavaScript off) opens at the form, where its message is.
        action={`${location.pathname}#${FAQ_FORM_ANCHOR}`}
        noValidate
        preventScrollReset
        className="relative mt-4 space-y-4"
        aria-labelledby={headingId}
      >
        {failed && (
          <ErrorAlert ref={summaryRef} testId="faq-form-error">
            <p>
              <span className="font-semibold">{t(failed.formError.titleKey)}</span> -{' '}
              <span>{t(failed.formError.messageKey)}</span>
            </p>
          </ErrorAlert>
        )}
        <Honeypot />
        <input type="hidden" name={FORM_TOKEN_FIELD} value={token} />
        {FIELDS.map((f) => {
          const id = `${uid}-${f.name}`;
          const errorKey = errorOf(f.name);
          const props = {
            id,
            name: f.name,
            autoComplete: f.autoComplete,
            required: true,
            maxLength: MAX_LENGTH[f.name],
            placeholder: t(`faq.${f.name}Placeholder`),
            defaultValue: failed?.values[f.name] ?? '',
            'aria-invalid': errorKey ? true : undefined,
            'aria-describedby': errorKey ? `${id}-error` : undefined,
            dir: f.ltr ? 'ltr' : undefined,
          } as const;
          return (
            <div key={`${f.name}-${failed ? 'x' : ''}`} className="space-y-1">
              <label htmlFor={id} className="block font-medium text-navy-900">
                {t(`faq.${f.name}Label`)}
              </label>
              {f.type === 'textarea' ? (
                <textarea {...props} rows={5} className={input} />
              ) : (
                <input
                  {...props}
                  type={f.type}
                  inputMode={f.type === 'tel' ? 'tel' : undefined}
                  className={`${input} ${f.ltr ? 'rtl:text-right' : ''}`}
                />
              )}
              {errorKey && (
                <p id={`${id}-error`} data-testid={`faq-error-${f.name}`} className="text-sm font-medium text-red-700">
                  {t(errorKey)}
                </p>
              )}
            </div>
          );
        })}
        <PendingSubmitButton pending={submitting} label={t('faq.submit')} pendingLabel={t('faq.submitting')} />
      </Form>
    </section>
  );
}
