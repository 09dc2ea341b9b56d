import { useLocation } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { resolveScrollTarget, scrollDelay, scrollTopFor } from './service-scroll';

/**
 * Applies the services hash-scrolling rule: whenever the page shows a hash (on load, or a
 * card or footer link changing it), wait the rule's delay, find the section and scroll so it
 * sits at the rule's offset below the viewport top.
 */
export function useServiceHashScroll() {
  const location = useLocation();
  const mounted = useRef(false);

  useEffect(() => {
    // The first run is the page arriving with its hash (page load or navigation into /services).
    const initialLoad = !mounted.current;
    mounted.current = true;
    if (!location.hash) return;
    const timer = window.setTimeout(() => {
      const target = resolveScrollTarget(document, location.hash);
      if (!target) return;
      const top = scrollTopFor(target.getBoundingClientRect().top, window.scrollY, window.innerWidth);
      const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
      window.scrollTo({ top, left: window.scrollX, behavior: reduce ? 'auto' : 'smooth' });
    }, scrollDelay(initialLoad));
    return () => window.clearTimeout(timer);
    // location.key: clicking the same card again scrolls again.
  }, [location.key, location.hash]);
}
