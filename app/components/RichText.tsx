import { useNavigate, type NavigateFunction } from '@remix-run/react';
import type { MouseEvent } from 'react';
import { ENGLISH_TEXT } from '~/lib/content-lang';
import type { RichText as RichTextValue } from '~/lib/rich-text.server';

/**
 * Rich text from the CMS, as the server rendered it (app/lib/rich-text.server.tsx, ADR 0035).
 * React hydrates the element without looking inside it, and on a client-side navigation sets the
 * string the loader sent. A click on a site link in it navigates client-side, as a Link does.
 */
export function RichText({ body, className }: { body: RichTextValue; className?: string }) {
  const navigate = useNavigate();
  return (
    <div
      className={className}
      {...(body.english ? ENGLISH_TEXT : {})}
      onClick={(event) => followSiteLink(event, navigate)}
      dangerouslySetInnerHTML={{ __html: body.html }}
    />
  );
}

/**
 * A plain left click on a link to a page of this site becomes Remix's navigation (no reload).
 * Left to the browser: a click with a modifier key or another button, a link with a target
 * (outside links open in a new tab) or a download, another origin or scheme (mailto:), and a
 * link to a place on this same page.
 */
export function followSiteLink(event: MouseEvent<HTMLElement>, navigate: NavigateFunction) {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
  const link = event.target instanceof Element ? event.target.closest('a') : null;
  if (!link || !event.currentTarget.contains(link)) return;
  if (link.hasAttribute('target') || link.hasAttribute('download') || !link.hasAttribute('href')) return;
  const url = new URL(link.href);
  if (url.origin !== window.location.origin) return;
  const here = window.location;
  if (url.pathname === here.pathname && url.search === here.search && url.hash) return;
  event.preventDefault();
  const to = url.pathname + url.search + url.hash;
  // As a Link does: going to the address already shown replaces the history entry.
  navigate(to, { replace: to === here.pathname + here.search + here.hash });
}
