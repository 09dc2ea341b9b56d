import { useEffect, useState } from 'react';

/** How far (px) the page must move in one direction before the floating buttons react. */
export const SCROLL_STEP = 12;
/** Near the top of the page the buttons always show (px). */
export const TOP_ZONE = 200;

export type ScrollState = { anchorY: number; hidden: boolean };

/**
 * The floating buttons on a phone: reading down the page hides them, so they never sit on
 * the text being read; any move back up, the top of the page and its end (where space is
 * kept for them) bring them back. Pure, so the rule is tested without a browser.
 */
export function nextScrollState(state: ScrollState, y: number, atEnd: boolean): ScrollState {
  if (y <= TOP_ZONE || atEnd) return { anchorY: y, hidden: false };
  const moved = y - state.anchorY;
  if (moved >= SCROLL_STEP) return { anchorY: y, hidden: true };
  if (moved <= -SCROLL_STEP) return { anchorY: y, hidden: false };
  return state;
}

/**
 * True while the reader scrolls down a page at a width matched by `query` (phones by
 * default); always false elsewhere and during server rendering.
 */
export function useHiddenWhileScrollingDown(query = '(max-width: 767px)') {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    const media = window.matchMedia(query);
    let state: ScrollState = { anchorY: window.scrollY, hidden: false };
    let frame = 0;
    const update = () => {
      frame = 0;
      const y = window.scrollY;
      const atEnd = window.innerHeight + y >= document.documentElement.scrollHeight - 8;
      state = media.matches ? nextScrollState(state, y, atEnd) : { anchorY: y, hidden: false };
      setHidden(state.hidden);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    media.addEventListener('change', update);
    return () => {
      window.removeEventListener('scroll', onScroll);
      media.removeEventListener('change', update);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [query]);
  return hidden;
}
