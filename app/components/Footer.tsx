import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { CookieSettingsLink } from '~/features/consent/CookieSettingsLink';
import { placeComma } from '~/i18n';
import { useFallbackLang } from '~/lib/content-lang';
import { deferred } from '~/lib/deferred';
import { isolateNumberRuns } from '~/lib/digits';
import { useLocale, useLocalizePath, useT } from '~/lib/locale';
import type { Shell } from '~/sanity/queries/shell';
import { CmsText } from './CmsText';
import { ClientLoginLink, scrollToTop } from './Header';
import { ClockIcon, MailIcon, PhoneIcon, PinIcon } from './icons';
import type { ImageAttributes } from './Img';
import { Logo } from './Logo';
import { TaggedText } from './TaggedText';

// The newsletter form's code is not among the first scripts (issue 43): at the end of the page, it
// works as a plain form until its code arrives and hydrates it (app/lib/deferred.tsx).
const NewsletterForm = deferred('newsletter', () =>
  import('~/features/forms/NewsletterForm').then((m) => m.NewsletterForm),
);

type Props = { shell: Shell; logo: ImageAttributes | null };

const footerLinkClass = 'inline-flex min-h-9 items-center text-navy-700 hover:text-navy-900 hover:underline';

function LinkList({
  title,
  links,
  last,
}: {
  title: string;
  links: { key: string; href: string; label: string }[];
  /** An item after the links (the way into the client portal). */
  last?: ReactNode;
}) {
  const inEnglish = useFallbackLang();
  if (!links.length) return null;
  return (
    <div>
      <h2 className="text-sm font-semibold uppercase tracking-wide text-navy-900">{title}</h2>
      <ul className="mt-3 space-y-1">
        {links.map((l) => (
          <li key={l.key}>
            <Link to={l.href} onClick={scrollToTop} className={footerLinkClass}>
              <span {...inEnglish(l.label)}>{l.label}</span>
            </Link>
          </li>
        ))}
        {last && <li>{last}</li>}
      </ul>
    </div>
  );
}

/**
 * An e-mail address or phone number as a link after its icon, written left to right in either
 * language; `label` ("Email", "Phone") is read to screen readers before it. Nothing without a value.
 */
function ContactLine({
  as: Tag,
  kind,
  value,
  label,
}: {
  as: 'li' | 'p';
  kind: 'email' | 'phone';
  value: string | null | undefined;
  label?: string;
}) {
  if (!value) return null;
  const Icon = kind === 'email' ? MailIcon : PhoneIcon;
  const href = kind === 'email' ? `mailto:${value}` : `tel:${value.replace(/\s/g, '')}`;
  return (
    <Tag className="flex items-center gap-2">
      <Icon className="size-4 shrink-0" />
      {label && <span className="sr-only">{label}: </span>}
      <a href={href} className="hover:underline" dir="ltr">
        {value}
      </a>
    </Tag>
  );
}

export function Footer({ shell, logo }: Props) {
  const { t } = useT();
  const localize = useLocalizePath();
  // "Dubai, UAE" / "دبي، الإمارات": Arabic writes its own comma.
  const comma = placeComma(useLocale());
  const { settings, offices, services } = shell;
  const inEnglish = useFallbackLang();
  const year = new Date().getFullYear();
  return (
    // On phones, room at the end for the floating buttons (FloatingButtons.tsx: two 3rem buttons, a
    // 0.75rem gap, 1rem or the safe area below), so that scrolled to the end they cover nothing.
    <footer
      data-testid="site-footer"
      className="border-t border-sand-200 bg-sand-50 max-md:pb-[calc(7.75rem+env(safe-area-inset-bottom))]"
    >
      <div className="bg-navy-900">
        <div className="mx-auto max-w-7xl px-4 py-10 md:px-8">
          <div className="max-w-2xl">
            <NewsletterForm formId="footer" tone="dark" />
          </div>
        </div>
      </div>
      <nav
        aria-label={t('footer.navigation')}
        className="mx-auto grid max-w-7xl gap-10 px-4 py-12 md:grid-cols-2 md:px-8 lg:grid-cols-[1.4fr_1fr_1fr_1fr]"
      >
        <div className="space-y-4">
          <Link to={localize('/')} onClick={scrollToTop} className="inline-block rounded-lg">
            <Logo brandName={settings.brandName} image={logo} placement="footer" />
          </Link>
          <CmsText text={settings.tagline} className="max-w-sm text-navy-700" />
          <ul className="space-y-2 text-navy-700">
            <ContactLine as="li" kind="email" value={settings.contactEmail} label={t('footer.email')} />
            <ContactLine as="li" kind="phone" value={settings.contactPhone} label={t('footer.phone')} />
          </ul>
        </div>
        <LinkList
          title={t('footer.company')}
          links={settings.footerNavigation.map((l) => ({ key: l._key, href: localize(l.href), label: l.label }))}
          last={<ClientLoginLink testId="client-login-footer" className={`${footerLinkClass} gap-2`} />}
        />
        <LinkList
          title={t('footer.services')}
          links={services.map((s) => ({ key: s._id, href: localize(`/services#${s.anchor}`), label: s.title }))}
        />
        <LinkList
          title={t('footer.legal')}
          links={settings.legalNavigation.map((l) => ({ key: l._key, href: localize(l.href), label: l.label }))}
          last={<CookieSettingsLink className={footerLinkClass} />}
        />
      </nav>

      <section aria-labelledby="footer-offices" className="border-t border-sand-200">
        <div className="mx-auto max-w-7xl px-4 py-10 md:px-8">
          <h2 id="footer-offices" className="text-sm font-semibold uppercase tracking-wide text-navy-900">
            {t('footer.offices')}
          </h2>
          <ul className="mt-4 grid gap-6 sm:grid-cols-2">
            {offices.map((office) => (
              <li
                key={office._id}
                data-testid={`office-${office.key}`}
                className="rounded-2xl border border-sand-200 bg-white p-5"
              >
                <p className="text-lg font-semibold text-navy-900">
                  <span {...inEnglish(office.city)}>{office.city}</span>
                  {office.country && office.country !== office.city && (
                    <span className="font-normal text-navy-700">
                      {comma}
                      <span {...inEnglish(office.country)}>{office.country}</span>
                    </span>
                  )}
                </p>
                <address className="mt-3 space-y-2 not-italic text-navy-700">
                  {office.address && (
                    <p className="flex gap-2">
                      <PinIcon className="mt-1 size-4 shrink-0" />
                      <span {...inEnglish(office.address)}>{isolateNumberRuns(office.address)}</span>
                    </p>
                  )}
                  <ContactLine as="p" kind="phone" value={office.phone} />
                  <ContactLine as="p" kind="email" value={office.email} />
                  {office.hours && (
                    <p className="flex items-center gap-2">
                      <ClockIcon className="size-4 shrink-0" />
                      <span className="sr-only">{t('footer.hours')}: </span>
                      <span {...inEnglish(office.hours)}>{office.hours}</span>
                    </p>
                  )}
                </address>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <div className="border-t border-sand-200">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-navy-700 md:px-8">
          <TaggedText
            text={t('footer.copyright', { year, brand: settings.brandName })}
            tags={{ brand: <span {...inEnglish(settings.brandName)} /> }}
          />
        </p>
      </div>
    </footer>
  );
}
