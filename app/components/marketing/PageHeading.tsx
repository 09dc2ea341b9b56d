import { useFallbackLang } from '~/lib/content-lang';
import { lead } from './ui';

const article = {
  title: 'text-3xl font-bold leading-tight text-navy-900 md:text-5xl md:leading-tight',
  intro: 'text-lg leading-relaxed text-navy-700 md:text-xl',
};

/** The looks of a page's h1 and its lead paragraph (which always sits 1.25rem below the h1). */
const VARIANTS = {
  /** The marketing pages (about, services, pricing): large, tight tracking. */
  marketing: { title: 'text-4xl font-bold tracking-tight text-navy-900 md:text-5xl rtl:leading-[1.35]', intro: lead },
  /** Pages of plain text and forms (FAQ, the booking confirmation). */
  plain: { title: 'text-3xl font-bold text-navy-900 md:text-5xl', intro: lead },
  /** An article: a longer title under its category, a larger lead. */
  article: { title: `mt-3 ${article.title}`, intro: article.intro },
  /** A case study: the article's look, narrower than its header band (which holds a grid of facts). */
  caseStudy: { title: `mt-3 max-w-4xl ${article.title}`, intro: `max-w-3xl ${article.intro}` },
};

type Props = {
  title: string;
  intro?: string | null;
  variant: keyof typeof VARIANTS;
  /** Where the h1 sits: margin, width. */
  className?: string;
  /** Where the lead sits: width, alignment. */
  introClassName?: string;
};

/**
 * A page's h1 and its optional lead paragraph, from content: each is marked English
 * (lang/dir) when it is an English fallback on an Arabic page.
 */
export function PageHeading({ title, intro, variant, className, introClassName }: Props) {
  const inEnglish = useFallbackLang();
  const look = VARIANTS[variant];
  return (
    <>
      <h1 className={[className, look.title].filter(Boolean).join(' ')} {...inEnglish(title)}>
        {title}
      </h1>
      {intro && (
        <p className={['mt-5', introClassName, look.intro].filter(Boolean).join(' ')} {...inEnglish(intro)}>
          {intro}
        </p>
      )}
    </>
  );
}
