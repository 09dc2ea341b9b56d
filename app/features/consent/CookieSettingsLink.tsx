import { useT } from '~/lib/locale';
import { CONSENT_BANNER_ID } from './consent';

/**
 * Shows the banner again and moves focus to it. Here rather than in consent-client.ts, which only
 * the banner's deferred code uses: the footer is in every page's first scripts (ADR 0024).
 */
function reopenConsent() {
  document.documentElement.setAttribute('data-consent', 'open');
  const banner = document.getElementById(CONSENT_BANNER_ID);
  banner?.focus();
}

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
