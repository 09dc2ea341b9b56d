import type { TFunction } from 'i18next';
import { renderToString } from 'react-dom/server';
import { intlLocale, type Locale } from '~/i18n';
import { fixedT } from '~/i18next.server';
import { ENGLISH_TEXT, portableTextLang } from '~/lib/content-lang';
import { renderRichText, type RichText } from '~/lib/rich-text.server';
import type { PortableTextValue } from '~/sanity/groq';
import { policyTable, type PolicyTable } from './policy-table.server';

/** A legal page as the CMS query returns it. */
type LegalPageContent = { title: string; updatedAt?: string | null; body: PortableTextValue };

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

const contentsLink =
  'inline-flex min-h-9 items-center text-navy-700 underline decoration-sand-200 underline-offset-4 hover:text-navy-900 hover:decoration-gold-500';

/** A body of rich text rendered by the server, in the page's tree. */
function Html({ body }: { body: RichText }) {
  return <div {...(body.english ? ENGLISH_TEXT : {})} dangerouslySetInnerHTML={{ __html: body.html }} />;
}

type Props = {
  page: LegalPageContent;
  lead: RichText | null;
  sections: (Omit<Section, 'blocks'> & { body: RichText })[];
  table: PolicyTable | null;
  tableId: string;
  locale: Locale;
  t: TFunction;
  /** The title is an English stand-in for a missing translation. */
  titleInEnglish: boolean;
};

function LegalPage({ page, lead, sections, table, tableId, locale, t, titleInEnglish }: Props) {
  const updated = page.updatedAt ? formatDate(page.updatedAt, locale) : null;
  // A body that stands in for a missing translation is English throughout.
  const bodyLang = portableTextLang(page.body);
  // The page's element (class bg-gradient-to-b ...) is the route component's.
  return (
    <>
      <header className="mx-auto max-w-3xl px-4 pt-12 pb-6 md:px-8 md:pt-16">
        <h1 className="text-3xl font-bold text-navy-900 md:text-5xl" {...(titleInEnglish ? ENGLISH_TEXT : {})}>
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
                  <a href={`#${s.id}`} className={contentsLink}>
                    {s.title}
                  </a>
                </li>
              ))}
              {table && (
                <li>
                  <a href={`#${tableId}`} className={contentsLink}>
                    {table.title}
                  </a>
                </li>
              )}
            </ol>
          </nav>
        )}

        <article className="text-navy-800" {...bodyLang} data-testid="legal-body">
          {lead && <Html body={lead} />}
          {sections.map((s) => (
            <section key={s.id} aria-labelledby={s.id}>
              <h2 id={s.id} className="mt-10 mb-3 scroll-mt-4 text-2xl font-bold text-navy-900">
                {s.title}
              </h2>
              <Html body={s.body} />
            </section>
          ))}
        </article>
        {table && <div className="text-navy-800" dangerouslySetInnerHTML={{ __html: table.html }} />}
      </div>
    </>
  );
}

/**
 * The legal pages' content (below the shell), rendered here to HTML (ADR 0035): nothing in it
 * changes in the browser, so the page's scripts carry none of it. renderToString, as the page's
 * own renderer writes text: the page's bytes stay the same. The body is split at its h2
 * headings into sections with anchors for the table of contents, followed by the policy's
 * table (app/features/legal/policy-table.server.tsx) if it has one. `englishFallbacks`: the
 * request's English stand-ins (app/sanity/load.server.ts).
 */
export function renderLegalPage(
  page: LegalPageContent,
  slug: string,
  locale: Locale,
  englishFallbacks: readonly string[],
): string {
  const split = splitSections(page.body);
  const tableId = `section-${split.sections.length + 1}`;
  return renderToString(
    <LegalPage
      page={page}
      lead={split.lead.length > 0 ? renderRichText(split.lead, locale) : null}
      sections={split.sections.map(({ blocks, ...s }) => ({ ...s, body: renderRichText(blocks, locale) }))}
      table={policyTable(slug, locale, tableId)}
      tableId={tableId}
      locale={locale}
      t={fixedT(locale, 'site')}
      titleInEnglish={locale !== 'en' && englishFallbacks.includes(page.title)}
    />,
  );
}
