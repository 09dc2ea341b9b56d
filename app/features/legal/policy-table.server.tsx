import type { TFunction } from 'i18next';
import { renderToString } from 'react-dom/server';
import type { Locale } from '~/i18n';
import { fixedT } from '~/i18next.server';
import { COOKIES } from '~/features/consent/cookie-list.server';
import { RETENTION_TABLE } from '~/portal/retention-policy.server';

/**
 * The table a policy shows after its text, from the lists in the code (issue 42): every cookie
 * the site can set (the cookies policy), and how long each kind of record is kept, the numbers
 * the clean-up job enforces (the privacy policy). Static, so rendered here to HTML (ADR 0035):
 * the legal page's scripts carry no table. `title` is its entry in the table of contents.
 */
export type PolicyTable = { title: string; html: string };

const cell =
  'border-b border-sand-200 px-3 py-2 text-start align-top max-sm:block max-sm:border-0 max-sm:px-0 max-sm:py-0.5';
/** On phones a row is a block of labelled lines, not four narrow columns. */
const phoneLabel = 'font-semibold sm:hidden';

/** A table's header row: its columns' names, from the table's keys in the site's strings. */
function ColumnHeads({ keys, table, t }: { keys: string[]; table: 'cookieTable' | 'retentionTable'; t: TFunction }) {
  return (
    <tr>
      {keys.map((key) => (
        <th key={key} scope="col" className={cell}>
          {t(`legal.${table}.${key}`)}
        </th>
      ))}
    </tr>
  );
}

function CookieTable({ id, locale, t }: { id: string; locale: Locale; t: TFunction }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mt-10 mb-3 scroll-mt-4 text-2xl font-bold text-navy-900">
        {t('legal.cookieTable.title')}
      </h2>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-sm max-sm:block" data-testid="cookie-table">
          <thead className="max-sm:sr-only">
            <ColumnHeads keys={['name', 'category', 'purpose', 'lifetime']} table="cookieTable" t={t} />
          </thead>
          <tbody className="max-sm:block">
            {COOKIES.map((cookie) => (
              <tr
                key={cookie.names[0]}
                data-cookie-names={cookie.names.join(' ')}
                className="max-sm:block max-sm:border-b max-sm:border-sand-200 max-sm:py-3"
              >
                <th scope="row" className={`${cell} font-mono font-normal`}>
                  <span dir="ltr" lang="en">
                    {cookie.names.join(', ')}
                  </span>
                </th>
                <td className={cell}>
                  <span className={phoneLabel}>{t('legal.cookieTable.category')}: </span>
                  {t(`legal.cookieTable.categories.${cookie.category}`)}
                </td>
                <td className={cell}>{cookie.purpose[locale]}</td>
                <td className={cell}>
                  <span className={phoneLabel}>{t('legal.cookieTable.lifetime')}: </span>
                  {cookie.lifetime[locale]}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function RetentionTable({ id, locale, t }: { id: string; locale: Locale; t: TFunction }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mt-10 mb-3 scroll-mt-4 text-2xl font-bold text-navy-900">
        {t('legal.retentionTable.title')}
      </h2>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-sm" data-testid="retention-table">
          <thead>
            <ColumnHeads keys={['what', 'period']} table="retentionTable" t={t} />
          </thead>
          <tbody>
            {RETENTION_TABLE.map((row) => (
              <tr key={row.key}>
                <td className={cell}>{row.what[locale]}</td>
                <td className={cell}>{row.period[locale]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * The table of the policy at `slug` (none for the others), with `id` as its heading's anchor.
 * renderToString, as the page's own renderer writes text: the page's bytes stay the same.
 */
export function policyTable(slug: string, locale: Locale, id: string): PolicyTable | null {
  const t = fixedT(locale, 'site');
  if (slug === 'cookies-policy')
    return {
      title: t('legal.cookieTable.title'),
      html: renderToString(<CookieTable id={id} locale={locale} t={t} />),
    };
  if (slug === 'privacy-policy')
    return {
      title: t('legal.retentionTable.title'),
      html: renderToString(<RetentionTable id={id} locale={locale} t={t} />),
    };
  return null;
}
