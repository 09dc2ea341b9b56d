import { useT } from '~/lib/locale';
import { CONSENT_BANNER_ID } from './consent';
import { reopenConsent } from './consent-client';

/** The footer's "Cookie settings": the banner again, focused (without JavaScript: a link to it). */
export function CookieSettingsLink({ className }: { className: string }) {
  const { t } = useT();
  return (
    <a
      href={`#${CONSENT_BANNER_ID}`}
      className={className}
      data-testid="cookie-settings"
      onClick={(event) => {
        event.preventDefault();
        window.dispatchEvent(new CustomEvent('consent:open', { detail: event.currentTarget }));
        reopenConsent();
      }}
    >
      {t('consent.settings')}
    </a>
  );
}
