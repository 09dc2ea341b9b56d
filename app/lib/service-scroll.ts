/**
 * The services page's hash scrolling rule (docs/requirements.md#public-pages):
 * - on /services with a hash, scroll to the section after 800 ms, or 1000 ms when the
 *   hash is already there as the page loads;
 * - the section lands 120 px below the top of the viewport under 768 px width, 160 px otherwise;
 * - target: the element with that id, else an element with a matching data-id, else a
 *   section whose id ends with the name.
 * Pure functions only; useServiceHashScroll applies them in the browser.
 */
export const SERVICE_ANCHORS = [
  'market-entry',
  'business-setup',
  'launch-strategy',
  'operations',
  'recruitment',
  'performance',
] as const;

export const MOBILE_BREAKPOINT = 768;
export const SCROLL_OFFSET = { mobile: 120, desktop: 160 } as const;
export const SCROLL_DELAY = { navigation: 800, initialLoad: 1000 } as const;

/** Pixels between the top of the viewport and the section once scrolled. */
export function scrollOffset(viewportWidth: number): number {
  return viewportWidth < MOBILE_BREAKPOINT ? SCROLL_OFFSET.mobile : SCROLL_OFFSET.desktop;
}

/** Milliseconds to wait before scrolling. */
export function scrollDelay(initialLoad: boolean): number {
  return initialLoad ? SCROLL_DELAY.initialLoad : SCROLL_DELAY.navigation;
}

/** The section name in a location hash: "#market-entry" -> "market-entry" ("" when none). */
export function hashName(hash: string | null | undefined): string {
  const raw = (hash ?? '').replace(/^#/, '');
  try {
    return decodeURIComponent(raw).trim();
  } catch {
    return raw.trim();
  }
}

/** The little of the DOM the rule reads (document satisfies it; tests pass a fake). */
export interface TargetElement {
  id: string;
  tagName: string;
  getAttribute(name: string): string | null;
}
export interface TargetRoot<E extends TargetElement> {
  getElementById(id: string): E | null;
  querySelectorAll(selectors: string): ArrayLike<E>;
}

/** The element a hash scrolls to, or null when nothing matches. */
export function resolveScrollTarget<E extends TargetElement>(
  root: TargetRoot<E>,
  hash: string | null | undefined,
): E | null {
  const name = hashName(hash);
  if (!name) return null;
  const byId = root.getElementById(name);
  if (byId) return byId;
  const withDataId = Array.from(root.querySelectorAll('[data-id]')).find((el) => el.getAttribute('data-id') === name);
  if (withDataId) return withDataId;
  return Array.from(root.querySelectorAll('section[id]')).find((el) => el.id.endsWith(name)) ?? null;
}

/**
 * The window scroll position that puts an element `offset` pixels below the viewport top.
 * `elementTop` is its getBoundingClientRect().top at the current `scrollY`.
 */
export function scrollTopFor(elementTop: number, scrollY: number, viewportWidth: number): number {
  return Math.max(0, Math.round(elementTop + scrollY - scrollOffset(viewportWidth)));
}
