import * as Dialog from '@radix-ui/react-dialog';
import { Link, useActionData, useLocation, useSearchParams } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { CenteredDialog, DialogCloseButton } from '~/components/CenteredDialog';
import { titleStyle, TitledSection } from '~/components/marketing/TitledSection';
import { useT } from '~/lib/locale';

export const STEP_PARAM = 'step';

export interface StepContext {
  /** True when shown as a section of the page (no JavaScript, or the ?step= address opened directly). */
  inline: boolean;
  /** A control that leaves the step without doing anything: closes the dialog, or links back to the page. */
  dismiss: (label: string, className: string, testId?: string) => React.ReactNode;
}

/**
 * One step of subscription management (change plan, cancel) that works with and without
 * JavaScript. The trigger is a link to `?step=<name>`: without JavaScript that address shows
 * the step as a section of the page; with JavaScript the click opens the same content in a
 * dialog instead (focus moves into it, Escape closes it, focus returns to the trigger).
 *
 * The step's title is `<step>.title` in portal.json. A new outcome of this step (the page's
 * action data, whose `intent` names the step) closes the dialog and focus goes to
 * `resultFocusRef` (the page's message) rather than back to the trigger. Another action's outcome
 * (a withdrawal or resumption sent just before the dialog was opened) leaves it open.
 */
export function StepDialog({
  step,
  triggerLabel,
  triggerClassName,
  children,
  resultFocusRef,
}: {
  step: 'change' | 'cancel';
  triggerLabel: string;
  triggerClassName: string;
  children: (ctx: StepContext) => React.ReactNode;
  resultFocusRef: React.RefObject<HTMLElement>;
}) {
  const { t } = useT('portal');
  const result = useActionData<{ intent?: string | null }>();
  const [params] = useSearchParams();
  const location = useLocation();
  const title = t(`${step}.title`);
  const [open, setOpen] = useState(false);
  const triggerRef = useRef<HTMLAnchorElement>(null);
  const closedByResult = useRef(false);
  const lastResult = useRef(result);

  useEffect(() => {
    if (result === lastResult.current) return;
    lastResult.current = result;
    if (open && result && (result.intent == null || result.intent === step)) {
      closedByResult.current = true;
      setOpen(false);
    }
  }, [result, open, step]);

  const backTo = (() => {
    const next = new URLSearchParams(params);
    next.delete(STEP_PARAM);
    const search = next.toString();
    return `${location.pathname}${search ? `?${search}` : ''}`;
  })();

  if (params.get(STEP_PARAM) === step) {
    return (
      <TitledSection
        title={title}
        testId={`step-${step}`}
        className="rounded-2xl border-2 border-gold-500 bg-white p-5 shadow-sm md:p-7"
        titleClassName={titleStyle.panel}
      >
        <div className="mt-3">
          {children({
            inline: true,
            dismiss: (label, className, testId) => (
              <Link to={backTo} className={className} data-testid={testId}>
                {label}
              </Link>
            ),
          })}
        </div>
      </TitledSection>
    );
  }

  return (
    <>
      <Link
        ref={triggerRef}
        to={`?${STEP_PARAM}=${step}`}
        preventScrollReset
        onClick={(event) => {
          // With JavaScript the step opens in a dialog over the page instead.
          event.preventDefault();
          setOpen(true);
        }}
        aria-haspopup="dialog"
        data-testid={`open-${step}`}
        className={triggerClassName}
      >
        {triggerLabel}
      </Link>
      <CenteredDialog
        open={open}
        onOpenChange={setOpen}
        aria-describedby={undefined}
        data-testid={`dialog-${step}`}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          if (closedByResult.current && resultFocusRef.current) resultFocusRef.current.focus();
          else triggerRef.current?.focus();
          closedByResult.current = false;
        }}
        className="flex max-h-[calc(100dvh-1rem)] w-[calc(100vw-1rem)] max-w-[560px] flex-col overflow-hidden"
      >
        <div className="flex items-start justify-between gap-4 border-b border-navy-100 px-5 py-4">
          <Dialog.Title className="text-xl font-bold text-navy-900">{title}</Dialog.Title>
          <DialogCloseButton label={t('common.close')} />
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">
          {children({
            inline: false,
            dismiss: (label, className, testId) => (
              <Dialog.Close type="button" className={className} data-testid={testId}>
                {label}
              </Dialog.Close>
            ),
          })}
        </div>
      </CenteredDialog>
    </>
  );
}
