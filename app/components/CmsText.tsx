import type { ComponentPropsWithoutRef, ElementType, ReactNode } from 'react';
import { useFallbackLang } from '~/lib/content-lang';

type Props<T extends ElementType> = {
  /** The element to render; a paragraph unless told. */
  as?: T;
  /** The CMS text. Empty or missing: nothing is rendered. */
  text: string | null | undefined;
  /** What to show instead of the bare text, e.g. `{(text) => <Bidi>{text}</Bidi>}`; the language still follows `text`. */
  children?: ReactNode | ((text: string) => ReactNode);
} & Omit<ComponentPropsWithoutRef<T>, 'as' | 'children'>;

/**
 * A piece of CMS text in an element of its own:
 *
 *   <CmsText as="h3" text={value.title} className="…" />
 *
 * renders `<h3 class="…">{value.title}</h3>`, marked lang="en" dir="ltr" when the text is an
 * English stand-in for a missing translation (useFallbackLang), and renders nothing when the
 * text is empty, so optional fields need no `{text && …}` around them.
 */
export function CmsText<T extends ElementType = 'p'>({ as, text, children, ...rest }: Props<T>) {
  const inEnglish = useFallbackLang();
  if (!text) return null;
  const Tag: ElementType = as ?? 'p';
  return (
    <Tag {...rest} {...inEnglish(text)}>
      {typeof children === 'function' ? children(text) : (children ?? text)}
    </Tag>
  );
}
