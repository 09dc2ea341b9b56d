import { englishFallbacks, loadQuery, notFound, policyTable, renderRichText } from '~/server-api';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { RichText } from '~/components/RichText';
import {
  ENGLISH_TEXT,
  intlLocale,
  type Locale,
  pageMeta,
  portableTextLang,
  requestLocale,
  RouteErrorBoundary,
  stripLocale,
  useFallbackLang,
  useLocale,
  useT,
} from '~/kit';
import type { PortableTextValue } from '~/sanity/groq';
import { LEGAL_PAGE_QUERY } from '~/sanity/queries/site';

/**
 * The legal pages: one module mounted at /privacy-policy, /terms-of-service and
 * /cookies-policy (and under /ar). The slug is the path itself.
 */
const LEGAL_SLUGS = new Set(['privacy-policy', 'terms-of-service', 'cookies-policy']);

export async function loader({ request }: LoaderFunctionArgs) {
  const { pathname } = new URL(request.url);
  const slug = stripLocale(pathname).replace(/^\/|\/$/g, '');
  const locale = requestLocale(request);
  if (!LEGAL_SLUGS.has(slug)) throw await notFound(locale);
  const page = await loadQuery(request, LEGAL_PAGE_QUERY, { lang: locale, slug });
  if (!page) throw await notFound(locale);
  // The body as HTML (ADR 0035), split at its h2 headings for the table of contents.
  const { body, ...rest } = page;
  const { lead, sections } = splitSections(body);
  return {
    page: {
      ...rest,
      lead: lead.length > 0 ? renderRichText(lead, locale) : null,
      sections: sections.map(({ blocks, ...s }) => ({ ...s, body: renderRichText(blocks, locale) })),
      // A body that stands in for a missing translation is English throughout.
      english: portableTextLang(body) !== undefined,
    },
    // The lists in the code that the policies show (issue 42), after the last section.
    table: policyTable(slug, locale, `section-${sections.length + 1}`),
    englishFallbacks: englishFallbacks(request),
  };
}

export const meta: MetaFunction<typeof loader> = (args) =>
  pageMeta(args, {
    title: args.data?.page.seo.title ?? args.data?.page.title,
    description: args.data?.page.seo.description,
  });

export const ErrorBoundary = RouteErrorBoundary;

type Block = PortableTextValue[number] & { style?: string; children?: { text?: string }[] };
type Section = { id: string; title: string; blocks: PortableTextValue };

/**
 * Splits the body at its h2 headings: each becomes a section with an anchor (section-1, ...
 * the same in both languages) for the table of contents. Blocks before the first h2 form
 * an untitled lead section.
 */
function splitSections(body: PortableTextValue): { lead: PortableTextValue; sections: Section[] } {
  const lead: PortableTextValue = [];
  const sections: Section[] = [];
  for (const block of body as Block[]) {
    if (block._type === 'block' && block.style === 'h2') {
      const title = (block.children ?? [])
        .map((c) => c.text ?? '')
        .join('')
        .trim();
      sections.push({ id: `section-${sections.length + 1}`, title, blocks: [] });
    } else if (sections.length) sections[sections.length - 1].blocks.push(block);
    else lead.push(block);
  }
  return { lead, sections };
}

function formatDate(date: string, locale: Locale): string | null {
  if (!/^\d{4}-\d{2}-\d{2}/.test(date)) return null;
  const time = Date.parse(date.length === 10 ? `${date}T00:00:00Z` : date);
  if (Number.isNaN(time)) return null;
  return new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: 'long', timeZone: 'UTC' }).format(time);
}

export default function LegalPage() {
  const { page, table } = useLoaderData<typeof loader>();
  const { lead, sections } = page;
  const locale = useLocale();
  const { t } = useT('site');
  const tableId = `section-${sections.length + 1}`;
  const updated = page.updatedAt ? formatDate(page.updatedAt, locale) : null;
  const inEnglish = useFallbackLang();
  const bodyLang = page.english ? ENGLISH_TEXT : undefined;
  return (
    <div className="bg-gradient-to-b from-sand-50 to-white">
      <header className="mx-auto max-w-3xl px-4 pt-12 pb-6 md:px-8 md:pt-16">
        <h1 className="text-3xl font-bold text-navy-900 md:text-5xl" {...inEnglish(page.title)}>
          {page.title}
        </h1>
        {updated && (
          <p className="mt-4 text-navy-700" data-testid="legal-updated">
            {t('legal.lastUpdated')}: <time dateTime={page.updatedAt!}>{updated}</time>
          </p>
        )}
        {bodyLang && <p className="mt-4 rounded-xl bg-sand-100 px-4 py-3 text-navy-800">{t('legal.englishOnly')}</p>}
      </header>

      <div className="mx-auto max-w-3xl px-4 pb-16 md:px-8">
        {sections.length + (table ? 1 : 0) > 1 && (
          <nav aria-labelledby="legal-contents" className="rounded-2xl border border-sand-200 bg-white p-5 md:p-6">
            <h2 id="legal-contents" className="text-sm font-semibold uppercase tracking-wide text-gold-700">
              {t('legal.contents')}
            </h2>
            <ol
              className="mt-3 grid list-decimal gap-x-8 gap-y-1 ps-6 marker:text-gold-700 sm:grid-cols-2"
              {...bodyLang}
            >
              {sections.map((s) => (
                <li key={s.id}>
                  <a
                    href={`#${s.id}`}
                    className="inline-flex min-h-9 items-center text-navy-700 underline decoration-sand-200 underline-offset-4 hover:text-navy-900 hover:decoration-gold-500"
                  >
                    {s.title}
                  </a>
                </li>
              ))}
              {table && (
                <li>
                  <a
                    href={`#${tableId}`}
                    className="inline-flex min-h-9 items-center text-navy-700 underline decoration-sand-200 underline-offset-4 hover:text-navy-900 hover:decoration-gold-500"
                  >
                    {table.title}
                  </a>
                </li>
              )}
            </ol>
          </nav>
        )}

        <article className="text-navy-800" {...bodyLang} data-testid="legal-body">
          {lead && <RichText body={lead} />}
          {sections.map((s) => (
            <section key={s.id} aria-labelledby={s.id}>
              <h2 id={s.id} className="mt-10 mb-3 scroll-mt-4 text-2xl font-bold text-navy-900">
                {s.title}
              </h2>
              <RichText body={s.body} />
            </section>
          ))}
        </article>
        {table && <div className="text-navy-800" dangerouslySetInnerHTML={{ __html: table.html }} />}
      </div>
    </div>
  );
}
