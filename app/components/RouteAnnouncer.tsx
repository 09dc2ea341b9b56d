import { useLocation } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';

/** What the announcer remembers of the page shown before a navigation. */
interface Seen {
  pathname: string;
  search: string;
  title: string;
}

/** The name of the page now shown: its title, else its main heading. */
function pageName(): string {
  const title = document.title.trim();
  if (title) return title;
  return document.querySelector('#main h1')?.textContent?.trim() ?? '';
}

/**
 * Tells screen reader users that a client-side navigation has shown a new page, as a full page
 * load would: a polite live region (rendered empty with the page, so it exists before it is
 * filled) reads the new page's title, and keyboard focus moves to the main landmark (`#main`,
 * focusable by script only), so the next Tab continues in the new page's content rather than in
 * the header, and focus never drops to <body> when the element that had it (a phone menu link, a
 * link in the old page) is gone; a field of the new page that already has focus keeps it. preventScroll leaves the scroll position to the links'
 * scroll-to-top and to ScrollRestoration (back and forward).
 *
 * A page change is a new path, or new search parameters that bring a new title (a listing's
 * ?page=2 is its own page); a hash link within the page, or parameters the page only reads (the
 * portal's ?welcome=1, a dialog step), are not. Nothing happens on the first load: the browser and
 * the screen reader announce a loaded page themselves. The language menu keeps focus on itself
 * after a switch (it passes state.focusLanguage), so there the page is announced only.
 */
/**
 * Whether a field of the new page already has focus (a tap, or a phone's one-time-code autofill,
 * between the new page's paint and this effect): it keeps it, or what the person types next would
 * go nowhere (a code posted with 4 of its 6 digits).
 */
function typingInNewPage(main: HTMLElement | null): boolean {
  const active = document.activeElement;
  if (!main || !active || active === main || !main.contains(active)) return false;
  return active.matches('input, textarea, select, [contenteditable]:not([contenteditable="false"])');
}

export function RouteAnnouncer() {
  const location = useLocation();
  const [message, setMessage] = useState('');
  const seen = useRef<Seen | null>(null);

  useEffect(() => {
    const before = seen.current;
    const now = { pathname: location.pathname, search: location.search, title: document.title };
    seen.current = now;
    if (!before) return;
    const newPage = before.pathname !== now.pathname || (before.search !== now.search && before.title !== now.title);
    if (!newPage) return;
    const main = document.getElementById('main');
    if (!(location.state as { focusLanguage?: boolean } | null)?.focusLanguage && !typingInNewPage(main)) {
      main?.focus({ preventScroll: true });
    }
    // Emptied first, so that a page with the same name as the last one is read again.
    setMessage('');
    const frame = requestAnimationFrame(() => setMessage(pageName()));
    return () => cancelAnimationFrame(frame);
  }, [location.key, location.pathname, location.search, location.state]);

  return (
    <div data-testid="route-announcer" aria-live="polite" aria-atomic="true" className="sr-only">
      {message}
    </div>
  );
}
