import { englishFallbacks, loadQuery, notFound } from '~/server-api';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useEffect } from 'react';
import {
  ChevronDownIcon,
  CmsText,
  HydrateLater,
  JsonLd,
  landingMeta,
  requestLocale,
  RouteErrorBoundary,
  useFallbackLang,
  useT,
} from '~/kit';
import { PageHeading, TitledSection } from '~/content-kit';
import { FaqQuestionForm } from '~/features/forms/FaqQuestionForm';
import { FAQ_PAGE_QUERY, type FaqPage } from '~/sanity/queries/site';

/**
 * /faq: the landing intro, the four categories with their questions in an accordion
 * (native <details>/<summary>: keyboard operable, announced as expanded/collapsed, and
 * working without JavaScript), and FAQPage structured data.
 *
 * The FAQ question form is rendered at the marked spot below; its `action` is
 * re-exported here.
 */
export { faqQuestionAction as action } from '~/server-api';

export async function loader({ request }: LoaderFunctionArgs) {
  const locale = requestLocale(request);
  const faq = await loadQuery(request, FAQ_PAGE_QUERY, { lang: locale });
  if (!faq.page) throw await notFound(locale);
  return { faq, englishFallbacks: englishFallbacks(request) };
}

export const meta: MetaFunction<typeof loader> = (args) => landingMeta(args, args.data?.faq.page);

export const ErrorBoundary = RouteErrorBoundary;

/** Anchor of a question: its document id without the type prefix (faqItem-bank-account -> bank-account). */
const anchorOf = (id: string) => id.replace(/^faqItem-/, '');
const categoryAnchor = (key: string) => `topic-${key}`;

function faqJsonLd(categories: FaqPage['categories']) {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: categories.flatMap((c) =>
      c.items.map((item) => ({
        '@type': 'Question',
        name: item.question,
        acceptedAnswer: { '@type': 'Answer', text: item.answer },
      })),
    ),
  };
}

/** A link to /faq#{question} opens that question. */
function useOpenQuestionFromHash() {
  useEffect(() => {
    const open = () => {
      const id = decodeURIComponent(window.location.hash.slice(1));
      const target = id ? document.getElementById(id) : null;
      if (target instanceof HTMLDetailsElement) target.open = true;
    };
    open();
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, []);
}

export default function Faq() {
  const { faq } = useLoaderData<typeof loader>();
  const { t } = useT('site');
  const inEnglish = useFallbackLang();
  const page = faq.page!;
  const categories = faq.categories.filter((c) => c.items.length > 0);
  useOpenQuestionFromHash();
  return (
    <div className="bg-gradient-to-b from-sand-50 to-white">
      <JsonLd data={faqJsonLd(categories)} />
      <header className="mx-auto max-w-4xl px-4 pt-12 pb-8 md:px-8 md:pt-16">
        <PageHeading title={page.title} intro={page.intro} variant="plain" introClassName="max-w-3xl" />
        <TitledSection
          as="nav"
          id="faq-topics"
          title={t('faq.topics')}
          className="mt-8"
          titleClassName="text-sm font-semibold uppercase tracking-wide text-gold-700"
        >
          <ul className="mt-3 flex flex-wrap gap-2">
            {categories.map((c) => (
              <li key={c._id}>
                <a
                  href={`#${categoryAnchor(c.key)}`}
                  className="inline-flex min-h-11 items-center rounded-full border border-navy-200 bg-white px-4 text-sm font-medium text-navy-800 hover:border-gold-500 hover:bg-sand-50"
                  {...inEnglish(c.title)}
                >
                  {c.title}
                </a>
              </li>
            ))}
          </ul>
        </TitledSection>
      </header>

      <div className="mx-auto max-w-4xl space-y-12 px-4 pb-16 md:px-8">
        {/* The questions hydrate apart from the page (HydrateLater); until then each opens natively. */}
        <HydrateLater>
          {categories.map((category) => (
            <section
              key={category._id}
              id={categoryAnchor(category.key)}
              aria-labelledby={`${categoryAnchor(category.key)}-title`}
              className="scroll-mt-4"
            >
              <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-sand-200 pb-3">
                <CmsText
                  as="h2"
                  text={category.title}
                  id={`${categoryAnchor(category.key)}-title`}
                  className="text-2xl font-bold text-navy-900"
                />
                <p className="text-sm text-navy-700">{t('faq.questionCount', { count: category.items.length })}</p>
              </div>
              <div className="mt-4 space-y-3" data-testid={`faq-category-${category.key}`}>
                {category.items.map((item) => (
                  <details
                    key={item._id}
                    id={anchorOf(item._id)}
                    data-testid="faq-item"
                    className="group scroll-mt-4 rounded-2xl border border-sand-200 bg-white shadow-sm open:border-gold-500/60"
                  >
                    <summary className="flex min-h-14 cursor-pointer list-none items-center justify-between gap-4 rounded-2xl px-5 py-4 text-start text-lg font-semibold text-navy-900 hover:bg-sand-50 [&::-webkit-details-marker]:hidden">
                      <CmsText as="span" text={item.question} />
                      <ChevronDownIcon className="size-5 shrink-0 text-gold-700 transition-transform group-open:rotate-180" />
                    </summary>
                    <div className="px-5 pb-5 leading-8 text-navy-700" {...inEnglish(item.answer)}>
                      {item.answer.split(/\n{2,}/).map((paragraph, i) => (
                        <p key={i} className={i ? 'mt-3' : undefined}>
                          {paragraph}
                        </p>
                      ))}
                    </div>
                  </details>
                ))}
              </div>
            </section>
          ))}
        </HydrateLater>

        {/* ── FAQ QUESTION FORM: component here, action re-exported above ── */}
        <FaqQuestionForm />
      </div>
    </div>
  );
}
