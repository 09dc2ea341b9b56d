import { PortableText, type PortableTextComponents } from '@portabletext/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Img, type ImageAttributes } from '~/components/Img';
import { localizePath, type Locale } from '~/i18n';
import { portableTextLang } from '~/lib/content-lang';
import { withImageAttributes } from '~/lib/portable-images.server';
import type { PortableTextValue, SanityImage } from '~/sanity/groq';
import { isValidHref } from '../../schemas/validation';

/**
 * Rich text from the CMS, rendered to HTML here, on the server (ADR 0035): the page's loader
 * returns this instead of the blocks, and `RichText` (app/components/RichText.tsx) puts the
 * string in its element, so the browser needs no Portable Text renderer. `english`: the blocks
 * stand in for a missing translation (the element is then marked lang="en" dir="ltr").
 */
export type RichText = { html: string; english: boolean };

type ImageBlock = SanityImage & { _type: 'image'; caption?: string | null; attributes?: ImageAttributes };

const linkClass = 'font-medium text-navy-700 underline decoration-gold-500 underline-offset-4 hover:text-navy-900';

/**
 * The elements of rich text. Site links are localized for the page's language and are plain
 * links (RichText turns a click on one into a client-side navigation); `data-discover` lets
 * Remix find their routes, as its Link's does. Outside links open in a new tab. A link the
 * Studio would not have accepted (a `javascript:` address written through the API) is left as
 * its text: the string is set as HTML in the browser.
 */
function components(locale: Locale): PortableTextComponents {
  return {
    block: {
      normal: ({ children }) => <p className="my-4 leading-8">{children}</p>,
      h2: ({ children }) => <h2 className="mt-10 mb-3 text-2xl font-bold text-navy-900">{children}</h2>,
      h3: ({ children }) => <h3 className="mt-8 mb-2 text-xl font-semibold text-navy-900">{children}</h3>,
      h4: ({ children }) => <h4 className="mt-6 mb-2 text-lg font-semibold text-navy-900">{children}</h4>,
      blockquote: ({ children }) => (
        <blockquote className="my-6 border-s-4 border-gold-500 bg-sand-50 px-5 py-3 text-lg italic text-navy-800">
          {children}
        </blockquote>
      ),
    },
    list: {
      bullet: ({ children }) => <ul className="my-4 list-disc space-y-2 ps-6 marker:text-gold-600">{children}</ul>,
      number: ({ children }) => <ol className="my-4 list-decimal space-y-2 ps-6 marker:text-gold-700">{children}</ol>,
    },
    marks: {
      strong: ({ children }) => <strong className="font-semibold text-navy-900">{children}</strong>,
      em: ({ children }) => <em>{children}</em>,
      code: ({ children }) => <code className="rounded bg-navy-50 px-1.5 py-0.5 text-[0.9em]">{children}</code>,
      link: ({ value, children }) => {
        const href: string = value?.href ?? '';
        if (!isValidHref(href)) return <>{children}</>;
        if (href.startsWith('/') && !href.startsWith('//')) {
          return (
            <a className={linkClass} data-discover="true" href={localizePath(href, locale)}>
              {children}
            </a>
          );
        }
        const external = /^https?:/.test(href);
        return (
          <a href={href} className={linkClass} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
            {children}
          </a>
        );
      },
    },
    types: {
      image: ({ value }: { value: ImageBlock }) =>
        value?.attributes ? (
          <figure className="my-8">
            <Img attributes={value.attributes} alt={value.alt ?? ''} className="h-auto w-full rounded-2xl" />
            {value.caption && <figcaption className="mt-2 text-sm text-navy-500">{value.caption}</figcaption>}
          </figure>
        ) : null,
    },
  };
}

/** The HTML of a body of rich text in `locale` (React escapes its text and attributes). */
export function renderRichText(value: PortableTextValue, locale: Locale): RichText {
  const html = renderToStaticMarkup(
    <PortableText value={withImageAttributes(value) as never} components={components(locale)} />,
  );
  return { html, english: portableTextLang(value) !== undefined };
}
