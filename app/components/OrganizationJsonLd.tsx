import { useShell } from '~/lib/shell';
import { localizePath, type Locale } from '~/i18n';
import type { Shell } from '~/sanity/queries/shell';
import { JsonLd } from './JsonLd';

/** ISO country codes of the offices, by office key (the CMS country name is localized). */
const OFFICE_COUNTRY: Record<string, string> = { dubai: 'AE', singapore: 'SG' };

/** `logoUrl`: the logo's URL at 512 px (app/lib/logo.server.ts), relative in the embedded world. */
type Input = { shell: Shell; locale: Locale; siteUrl: string; logoUrl?: string };

/** Organization structured data: the firm, its contact details and both offices. Pure, for tests. */
export function organizationJsonLd({ shell, locale, siteUrl, logoUrl }: Input) {
  const { settings, offices } = shell;
  const home = siteUrl + localizePath('/', locale);
  const logo = logoUrl && (logoUrl.startsWith('http') ? logoUrl : siteUrl + logoUrl);
  const address = (office: Shell['offices'][number]) => ({
    '@type': 'PostalAddress',
    ...(office.address ? { streetAddress: office.address } : {}),
    addressLocality: office.city,
    addressCountry: OFFICE_COUNTRY[office.key] ?? office.country ?? undefined,
  });
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': `${siteUrl}/#organization`,
    name: settings.brandName,
    url: home,
    inLanguage: locale,
    ...(settings.tagline ? { description: settings.tagline } : {}),
    ...(logo ? { logo } : {}),
    ...(settings.contactEmail ? { email: settings.contactEmail } : {}),
    ...(settings.contactPhone ? { telephone: settings.contactPhone } : {}),
    address: offices.map(address),
    location: offices.map((office) => ({
      '@type': 'Place',
      name: `${settings.brandName}, ${office.city}`,
      address: address(office),
      ...(office.phone ? { telephone: office.phone } : {}),
    })),
    contactPoint: offices
      .filter((office) => office.phone || office.email)
      .map((office) => ({
        '@type': 'ContactPoint',
        contactType: 'customer service',
        areaServed: OFFICE_COUNTRY[office.key] ?? undefined,
        availableLanguage: ['en', 'ar'],
        ...(office.phone ? { telephone: office.phone } : {}),
        ...(office.email ? { email: office.email } : {}),
      })),
  };
}

/** Mount once in the page shell (layouts/locale.tsx): it reads the shell data itself. */
export function OrganizationJsonLd() {
  const { shell, locale, siteUrl, logo } = useShell();
  return <JsonLd data={organizationJsonLd({ shell, locale, siteUrl, logoUrl: logo?.schema })} />;
}
