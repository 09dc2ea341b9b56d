import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useId, useRef, useState } from 'react';
import { CenteredDialog } from '~/components/CenteredDialog';
import { useT } from '~/kit';
import {
  openVerification,
  questionValues,
  submitAnswer,
  verificationErrorKey,
  VERIFY_KEYS,
  type VerificationEffect,
  type VerificationState,
} from './puzzle';

/**
 * The Security Verification dialog (docs/requirements.md#chat-and-booking). A new puzzle on every
 * opening; `onEffect` receives 'failed' (3rd wrong answer, a new puzzle is shown) and
 * 'verified' (the caller closes the dialog, toasts and opens the chat, in the same
 * user gesture so the new tab is not blocked).
 */
export function VerificationDialog({
  open,
  onOpenChange,
  onEffect,
  returnFocusRef,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onEffect: (effect: Exclude<VerificationEffect, null>) => void;
  returnFocusRef?: React.RefObject<HTMLElement | null>;
}) {
  const { t } = useT('chat');
  const [state, setState] = useState<VerificationState | null>(null);
  const [answer, setAnswer] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const errorId = useId();

  useEffect(() => {
    if (open) {
      setState((prev) => openVerification(Math.random, prev?.puzzle));
      setAnswer('');
    }
  }, [open]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!state) return;
    const { state: next, effect } = submitAnswer(state, answer);
    setState(next);
    if (effect === 'failed' || next.error) {
      setAnswer('');
      inputRef.current?.focus();
    }
    if (effect) onEffect(effect);
  };

  const errorKey = state ? verificationErrorKey(state.error) : null;
  return (
    <CenteredDialog
      open={open}
      onOpenChange={onOpenChange}
      blur={false}
      data-testid="verification-dialog"
      className="w-[calc(100vw-2rem)] max-w-md p-6"
      returnFocusRef={returnFocusRef}
      onOpenAutoFocus={(e) => {
        e.preventDefault();
        inputRef.current?.focus();
      }}
    >
      <Dialog.Title className="text-xl font-bold text-navy-900">{t(VERIFY_KEYS.title)}</Dialog.Title>
      <Dialog.Description className="mt-2 text-navy-700">{t(VERIFY_KEYS.description)}</Dialog.Description>
      <form onSubmit={submit} noValidate className="mt-5 space-y-4">
        {state && (
          <p className="text-2xl font-semibold text-navy-900" data-testid="verification-question" aria-live="polite">
            <bdi>{t(VERIFY_KEYS.question, questionValues(state.puzzle))}</bdi>
          </p>
        )}
        <div className="space-y-1">
          <label htmlFor={inputId} className="block font-medium text-navy-900">
            {t(VERIFY_KEYS.answerLabel)}
          </label>
          <input
            ref={inputRef}
            id={inputId}
            name="answer"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            dir="ltr"
            value={answer}
            onChange={(e) => setAnswer(e.target.value)}
            placeholder={t(VERIFY_KEYS.answerPlaceholder)}
            aria-invalid={errorKey ? true : undefined}
            aria-describedby={errorKey ? errorId : undefined}
            className="block min-h-11 w-full rounded-lg border border-navy-300 px-3 text-lg text-navy-900 placeholder:text-navy-400 focus:border-navy-500 aria-[invalid=true]:border-red-700 rtl:text-right"
          />
          <p id={errorId} role="alert" className="min-h-6 text-sm font-medium text-red-700">
            {errorKey ? t(errorKey) : ''}
          </p>
        </div>
        <div className="flex justify-end gap-2">
          <Dialog.Close className="inline-flex min-h-11 items-center rounded-full border border-navy-200 px-5 font-semibold text-navy-900 hover:bg-navy-50">
            {t(VERIFY_KEYS.cancel)}
          </Dialog.Close>
          <button
            type="submit"
            className="inline-flex min-h-11 items-center rounded-full bg-navy-900 px-5 font-semibold text-white hover:bg-navy-800"
          >
            {t(VERIFY_KEYS.submit)}
          </button>
        </div>
      </form>
    </CenteredDialog>
  );
}
