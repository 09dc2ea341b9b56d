import * as Dialog from '@radix-ui/react-dialog';
import { useLocation, useNavigate } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { CenteredDialog, DialogCloseButton } from '~/components/CenteredDialog';
import { CheckIcon } from '~/components/icons';
import { button } from '~/components/marketing/ui';
import { useT } from '~/lib/locale';
import { useFormatDate } from './shared';

let appHydrated = false;

/**
 * "Payment successful" after checkout (the page is opened with ?welcome=1). With JavaScript a
 * dialog; without it, the same message as a banner at the top of the page.
 */
export function WelcomeMessage({
  planName,
  nextBilling,
  focusAfterClose,
}: {
  planName: string;
  nextBilling: string;
  focusAfterClose: React.RefObject<HTMLElement>;
}) {
  const { t } = useT('portal');
  const date = useFormatDate();
  const navigate = useNavigate();
  const location = useLocation();
  // The first render in the browser must match the server's (the banner); later mounts open the dialog at once.
  const [hydrated, setHydrated] = useState(appHydrated);
  const [open, setOpen] = useState(true);
  useEffect(() => {
    appHydrated = true;
    setHydrated(true);
  }, []);

  const body = (
    <>
      <dl className="mt-4 space-y-2 rounded-xl bg-sand-50 p-4">
        <div className="flex flex-wrap justify-between gap-x-4">
          <dt className="text-navy-700">{t('welcome.plan')}</dt>
          <dd className="font-bold text-navy-900" data-testid="welcome-plan">
            {planName}
          </dd>
        </div>
        <div className="flex flex-wrap justify-between gap-x-4">
          <dt className="text-navy-700">{t('welcome.nextBilling')}</dt>
          <dd className="font-semibold text-navy-900" data-testid="welcome-date">
            {date(nextBilling)}
          </dd>
        </div>
      </dl>
      <p className="mt-3 text-sm text-navy-700">{t('welcome.email')}</p>
    </>
  );

  if (!hydrated) {
    return (
      <section
        role="status"
        aria-labelledby="welcome-title"
        data-testid="welcome-banner"
        className="rounded-2xl border border-emerald-300 bg-emerald-50 p-5 md:p-6"
      >
        <h2 id="welcome-title" className="flex items-center gap-2 text-xl font-bold text-emerald-900">
          <CheckIcon className="size-6 shrink-0" />
          {t('welcome.title')}
        </h2>
        <p className="mt-1 text-emerald-900">{t('welcome.text')}</p>
        {body}
      </section>
    );
  }

  const close = (next: boolean) => {
    if (next) return;
    setOpen(false);
    // Leaves ?welcome=1 behind, so a reload does not show the message again.
    const params = new URLSearchParams(location.search);
    params.delete('welcome');
    const search = params.toString();
    navigate(`${location.pathname}${search ? `?${search}` : ''}${location.hash}`, {
      replace: true,
      preventScrollReset: true,
    });
  };

  return (
    <CenteredDialog
      open={open}
      onOpenChange={close}
      data-testid="welcome-dialog"
      returnFocusRef={focusAfterClose}
      className="w-[calc(100vw-1rem)] max-w-[480px] p-6"
    >
      <div className="flex items-start justify-between gap-4">
        <div className="flex items-center gap-3">
          <span
            className="inline-flex size-11 shrink-0 items-center justify-center rounded-full bg-emerald-100 text-emerald-800"
            aria-hidden="true"
          >
            <CheckIcon className="size-6" />
          </span>
          <Dialog.Title className="text-xl font-bold text-navy-900">{t('welcome.title')}</Dialog.Title>
        </div>
        <DialogCloseButton label={t('common.close')} />
      </div>
      <Dialog.Description className="mt-3 text-navy-700">{t('welcome.text')}</Dialog.Description>
      {body}
      <Dialog.Close className={`${button.primary} mt-5 w-full`} data-testid="welcome-close">
        {t('welcome.close')}
      </Dialog.Close>
    </CenteredDialog>
  );
}
