import { Link } from '@remix-run/react';
import { useLocalizePath, useT } from '~/lib/locale';
import { ExternalIcon } from '~/components/page-icons';

/**
 * A CMS link: site paths stay in the page's language; other addresses open in a new tab
 * (rel noopener noreferrer) and say so to screen readers.
 */
export function CmsLink({
  href,
  className,
  children,
}: {
  href: string;
  className?: string;
  children: React.ReactNode;
}) {
  const { t } = useT('marketing');
  const localize = useLocalizePath();
  if (href.startsWith('/') && !href.startsWith('//')) {
    return (
      <Link to={localize(href)} className={className}>
        {children}
      </Link>
    );
  }
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <ExternalIcon className="ms-1 inline-block size-4 align-[-0.15em]" />
      <span className="sr-only"> {t('opensInNewTab')}</span>
    </a>
  );
}
