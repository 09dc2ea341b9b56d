import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { useLocalizePath, useT } from '~/kit';
import { button } from '~/content-kit';
import { BusyButton, card, PortalPage } from '~/features/portal/kit';

type LoaderData = { state: string; fields: Record<string, string>; title: string };

/**
 * The page behind the newsletter's emailed links (confirm, unsubscribe), in the path's language.
 * Before the POST: what the link will do and one button (a plain form: no JavaScript needed).
 * After it, or when the link cannot act (expired, altered, done already): the outcome.
 */
export function NewsletterLinkPage({ kind }: { kind: 'confirm' | 'unsubscribe' }) {
  const { state, fields } = useLoaderData<LoaderData>();
  const posted = useActionData<{ result: string }>();
  const { t } = useT('forms');
  const localize = useLocalizePath();
  const navigation = useNavigation();
  const outcomeRef = useRef<HTMLDivElement>(null);
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const ns = kind === 'confirm' ? 'newsletter.confirmPage' : 'newsletter.unsubscribePage';
  const shown = posted?.result ?? state;

  useEffect(() => {
    if (posted) outcomeRef.current?.focus();
  }, [posted]);

  return (
    <PortalPage testId={`newsletter-${kind}-page`} title={t(`${ns}.title`)} width="narrow">
      <div className={`${card} space-y-5`} data-state={shown}>
        {shown === 'ready' ? (
          <Form method="post" className="space-y-5">
            <p className="text-navy-800">{t(`${ns}.ready`)}</p>
            {Object.entries(fields).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <BusyButton
              busy={busy}
              label={t(`${ns}.button`)}
              busyLabel={t(`${ns}.busy`)}
              testId={`newsletter-${kind}-button`}
            />
          </Form>
        ) : (
          <div
            ref={outcomeRef}
            tabIndex={-1}
            role={shown === 'invalid' || shown === 'expired' ? 'alert' : 'status'}
            data-testid={`newsletter-${kind}-outcome`}
            className="outline-none"
          >
            <p className="font-medium text-navy-900">{t(`${ns}.${shown}`)}</p>
            <Link to={localize('/')} className={`${button.primary} mt-5`}>
              {t(`${ns}.home`)}
            </Link>
          </div>
        )}
      </div>
    </PortalPage>
  );
}
