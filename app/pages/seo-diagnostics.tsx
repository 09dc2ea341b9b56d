import { buildDiagnostics, env, fixedT, isPreview, loadQuery, notFound, publicPages } from '~/server-api';
import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { stegaClean } from '@sanity/client/stega';
import {
  dir,
  errorTitle,
  intlLocale,
  localeNames,
  localizePath,
  pageMeta,
  requestLocale,
  RouteErrorBoundary,
  useLocale,
  useT,
} from '~/kit';
import { TitledSection } from '~/content-kit';
import type { DiagnosticsEntry } from '~/features/seo/diagnostics.server';
import { DESCRIPTION_MAX, TITLE_MAX } from '~/features/seo/limits';
import { CONTENT_DOCUMENTS_QUERY, CONTENT_TYPES, SITE_PAGES_QUERY } from '~/sanity/queries/site';

/**
 * /seo-diagnostics: an internal audit of every public URL (both languages): title,
 * description, canonical, alternates and untranslated fields. Not indexed, not in the
 * sitemap, disallowed in robots.txt.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  // For the team only: inside a preview session, or on a deployment that opens it with
  // SEO_DIAGNOSTICS_PUBLIC=1 (a staging site). Everyone else sees the not-found page.
  const lang = requestLocale(request);
  if (!(await isPreview(request)) && process.env.SEO_DIAGNOSTICS_PUBLIC !== '1') throw await notFound(lang);
  // In a hosted preview session text carries stega edit links; lengths are measured without them.
  const [en, ar, documents] = stegaClean(
    await Promise.all([
      loadQuery(request, SITE_PAGES_QUERY, { lang: 'en' }),
      loadQuery(request, SITE_PAGES_QUERY, { lang: 'ar' }),
      loadQuery(request, CONTENT_DOCUMENTS_QUERY, { lang, types: [...CONTENT_TYPES] }),
    ]),
  );
  const pages = publicPages(en);
  return {
    title: fixedT(lang, 'site')('seo.title'),
    diagnostics: buildDiagnostics({ pages, content: { en, ar }, documents, siteUrl: env().siteUrl }),
  };
}

export const headers: HeadersFunction = () => ({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' });

// The title is interface text (site.json), read by the loader: meta has no translator.
export const meta: MetaFunction<typeof loader> = (args) =>
  pageMeta(args, { title: args.data?.title ?? errorTitle(args.error), noindex: true });

export const ErrorBoundary = RouteErrorBoundary;

function Length({ value, max }: { value: string; max: number }) {
  const { t } = useT('site');
  const length = [...value].length;
  const over = length > max;
  return (
    <span className={`mt-1 block text-xs ${over ? 'font-semibold text-amber-800' : 'text-navy-700'}`}>
      {t('seo.characters', { count: length })}
      {over && ` · ${t('seo.tooLong')}`}
    </span>
  );
}

const sectionTitle = 'text-2xl font-bold text-navy-900';

function EntryCells({ entry }: { entry: DiagnosticsEntry }) {
  const { t } = useT('site');
  return (
    <>
      <td className="px-3 py-3 align-top" lang={entry.locale} dir={dir(entry.locale)}>
        <span className="font-medium text-navy-900">{entry.title}</span>
        <Length value={entry.title} max={TITLE_MAX} />
      </td>
      <td className="px-3 py-3 align-top">
        {entry.description ? (
          <>
            <span lang={entry.locale} dir={dir(entry.locale)} className="block text-navy-800">
              {entry.description}
            </span>
            <Length value={entry.description} max={DESCRIPTION_MAX} />
            {entry.defaultDescription && (
              <span className="mt-1 inline-block rounded bg-amber-50 px-1.5 text-xs text-amber-800">
                {t('seo.siteDefault')}
              </span>
            )}
          </>
        ) : (
          <span className="font-semibold text-amber-800">{t('seo.noDescription')}</span>
        )}
      </td>
      <td className="px-3 py-3 align-top">
        <code dir="ltr" className="block break-all text-xs text-navy-800">
          {entry.canonical}
        </code>
      </td>
      <td className="px-3 py-3 align-top">
        <ul className="space-y-1 text-xs text-navy-800">
          {entry.alternates.map((a) => (
            <li key={a.hreflang} dir="ltr" className="break-all text-start">
              <span className="font-semibold">{a.hreflang}</span> {a.href}
            </li>
          ))}
        </ul>
      </td>
    </>
  );
}

export default function SeoDiagnostics() {
  const { diagnostics } = useLoaderData<typeof loader>();
  const { t } = useT('site');
  const locale = useLocale();
  const { rows, other } = diagnostics;
  const entries = rows.flatMap((r) => r.entries);
  const stats = [
    { label: t('seo.pages'), value: rows.length, testId: 'stat-pages' },
    { label: t('seo.urls'), value: entries.length, testId: 'stat-urls' },
    {
      label: t('seo.pagesMissingArabic'),
      value: rows.filter((r) => r.missingArabic.length).length,
      testId: 'stat-missing',
    },
    {
      label: t('seo.longTitles'),
      value: entries.filter((e) => [...e.title].length > TITLE_MAX).length,
      testId: 'stat-long-titles',
    },
    {
      label: t('seo.defaultDescriptions'),
      value: entries.filter((e) => e.defaultDescription).length,
      testId: 'stat-default-descriptions',
    },
  ];
  const number = new Intl.NumberFormat(intlLocale[locale]);
  return (
    <div className="mx-auto max-w-7xl px-4 pt-10 pb-16 md:px-8 md:pt-14">
      <h1 className="text-3xl font-bold text-navy-900 md:text-4xl">{t('seo.title')}</h1>
      <p className="mt-4 max-w-3xl text-lg leading-8 text-navy-700">{t('seo.intro')}</p>
      <p className="mt-3 max-w-3xl text-sm text-navy-700">{t('seo.internal')}</p>
      <p className="mt-1 max-w-3xl text-sm text-navy-700">{t('seo.sourceNote')}</p>

      <TitledSection id="seo-summary" title={t('seo.summaryTitle')} className="mt-8" titleClassName="sr-only">
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-5">
          {stats.map((s) => (
            <div key={s.testId} className="rounded-2xl border border-sand-200 bg-sand-50 p-4">
              <dt className="text-sm text-navy-700">{s.label}</dt>
              <dd className="mt-1 text-2xl font-bold text-navy-900" data-testid={s.testId}>
                {number.format(s.value)}
              </dd>
            </div>
          ))}
        </dl>
      </TitledSection>

      <TitledSection id="seo-table" title={t('seo.tableTitle')} className="mt-10" titleClassName={sectionTitle}>
        <div
          role="region"
          aria-label={t('seo.tableScroll')}
          tabIndex={0}
          className="mt-4 overflow-x-auto rounded-2xl border border-sand-200"
        >
          <table className="w-full min-w-[1100px] border-collapse text-start text-sm" data-testid="seo-table">
            <caption className="sr-only">{t('seo.tableCaption')}</caption>
            <thead className="bg-navy-900 text-white">
              <tr>
                {[
                  t('seo.page'),
                  t('seo.language'),
                  t('seo.titleColumn'),
                  t('seo.description'),
                  t('seo.canonical'),
                  t('seo.alternates'),
                  t('seo.missingArabic'),
                ].map((h) => (
                  <th key={h} scope="col" className="px-3 py-3 text-start font-semibold">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            {rows.map((row) => (
              <tbody
                key={row.path}
                className="border-t border-sand-200 odd:bg-white even:bg-sand-50"
                data-testid="seo-row"
                data-path={row.path}
              >
                {row.entries.map((entry, i) => (
                  <tr key={entry.locale} className={i ? 'border-t border-dashed border-sand-200' : undefined}>
                    {i === 0 && (
                      <th
                        scope="rowgroup"
                        rowSpan={row.entries.length}
                        className="w-44 px-3 py-3 text-start align-top font-semibold"
                      >
                        <Link
                          to={localizePath(row.path, locale)}
                          dir="ltr"
                          className="break-all text-navy-800 underline decoration-gold-500 underline-offset-4 hover:text-navy-900"
                        >
                          {row.path}
                        </Link>
                      </th>
                    )}
                    <td className="px-3 py-3 align-top whitespace-nowrap text-navy-800">
                      <span lang={entry.locale}>{localeNames[entry.locale]}</span>
                    </td>
                    <EntryCells entry={entry} />
                    {i === 0 && (
                      <td rowSpan={row.entries.length} className="w-56 px-3 py-3 align-top">
                        {row.missingArabic.length ? (
                          <ul className="space-y-1 text-xs" data-testid="missing-arabic">
                            {row.missingArabic.map((m) => (
                              <li
                                key={`${m.documentId}:${m.field}`}
                                dir="ltr"
                                className="text-start font-medium text-amber-800"
                              >
                                {m.documentId} · {m.field}
                              </li>
                            ))}
                          </ul>
                        ) : (
                          <span className="text-emerald-800">{t('seo.none')}</span>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
      </TitledSection>

      <TitledSection id="seo-other" title={t('seo.otherTitle')} className="mt-10" titleClassName={sectionTitle}>
        <p className="mt-2 text-navy-700">{t('seo.otherIntro')}</p>
        {other.length ? (
          <table className="mt-4 border-collapse text-sm" data-testid="seo-other">
            <thead>
              <tr>
                {[t('seo.document'), t('seo.field')].map((h) => (
                  <th key={h} scope="col" className="border-b border-sand-200 px-3 py-2 text-start">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {other.map((m) => (
                <tr key={`${m.documentId}:${m.field}`}>
                  <td className="px-3 py-2" dir="ltr">
                    {m.documentId}
                  </td>
                  <td className="px-3 py-2" dir="ltr">
                    {m.field}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="mt-4 font-medium text-emerald-800" data-testid="seo-other-none">
            {t('seo.allTranslated')}
          </p>
        )}
      </TitledSection>
    </div>
  );
}
