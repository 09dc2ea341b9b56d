import { PortableText as PortableTextRenderer, type PortableTextComponents } from '@portabletext/react';
import { Link } from '@remix-run/react';
import { portableTextLang } from '~/lib/content-lang';
import { HydrateLater } from '~/lib/deferred';
import { useLocalizePath } from '~/lib/locale';
import type { PortableTextValue, SanityImage as Img } from '~/sanity/groq';
import { type ImageAttributes, Img as ImgElement } from './Img';

/** `attributes`: built by the page's loader (app/lib/portable-images.server.ts). */
type ImageBlock = Img & { _type: 'image'; caption?: string | null; attributes?: ImageAttributes };

/**
 * Rich text from the CMS (localeBlockContent already localized by the query). Site links
 * are localized for the page's language; outside links open in a new tab. A body that
 * stands in for a missing translation is marked lang="en".
 */
export function PortableText({ value, className }: { value: PortableTextValue; className?: string }) {
  const localize = useLocalizePath();
  const components: PortableTextComponents = {
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
        const cls = 'font-medium text-navy-700 underline decoration-gold-500 underline-offset-4 hover:text-navy-900';
        if (href.startsWith('/') && !href.startsWith('//')) {
          return (
            <Link to={localize(href)} className={cls}>
              {children}
            </Link>
          );
        }
        const external = /^https?:/.test(href);
        return (
          <a href={href} className={cls} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
            {children}
          </a>
        );
      },
    },
    types: {
      image: ({ value }: { value: ImageBlock }) =>
        value?.attributes ? (
          <figure className="my-8">
            <ImgElement attributes={value.attributes} alt={value.alt ?? ''} className="h-auto w-full rounded-2xl" />
            {value.caption && <figcaption className="mt-2 text-sm text-navy-500">{value.caption}</figcaption>}
          </figure>
        ) : null,
    },
  };
  return (
    <div className={className} {...portableTextLang(value)}>
      {/* A body can be long: hydrated apart from the page around it. */}
      <HydrateLater>
        <PortableTextRenderer value={value as never} components={components} />
      </HydrateLater>
    </div>
  );
}
