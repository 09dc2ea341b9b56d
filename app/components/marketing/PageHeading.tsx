import { useFallbackLang } from '~/lib/content-lang';

type Props = { title: string; intro?: string | null; className: string; introClassName: string };

/**
 * A page's h1 and its optional lead paragraph, from content: each is marked English
 * (lang/dir) when it is an English fallback on an Arabic page.
 */
export function PageHeading({ title, intro, className, introClassName }: Props) {
  const inEnglish = useFallbackLang();
  return (
    <>
      <h1 className={className} {...inEnglish(title)}>
        {title}
      </h1>
      {intro && (
        <p className={introClassName} {...inEnglish(intro)}>
          {intro}
        </p>
      )}
    </>
  );
}
