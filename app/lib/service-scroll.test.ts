import { describe, expect, it } from 'vitest';
import {
  hashName,
  resolveScrollTarget,
  scrollDelay,
  scrollOffset,
  scrollTopFor,
  type TargetElement,
  type TargetRoot,
} from './service-scroll';

type Fake = TargetElement & { name: string };
const el = (tagName: string, id: string, dataId?: string): Fake => ({
  tagName: tagName.toUpperCase(),
  id,
  name: `${tagName}#${id}[${dataId ?? ''}]`,
  getAttribute: (attr) => (attr === 'data-id' ? (dataId ?? null) : null),
});

/** A tiny document: getElementById and the two selectors the rule uses, in document order. */
function root(elements: Fake[]): TargetRoot<Fake> {
  return {
    getElementById: (id) => elements.find((e) => e.id === id) ?? null,
    querySelectorAll: (selector) => {
      if (selector === '[data-id]') return elements.filter((e) => e.getAttribute('data-id') !== null);
      if (selector === 'section[id]') return elements.filter((e) => e.tagName === 'SECTION' && e.id);
      throw new Error(`unexpected selector ${selector}`);
    },
  };
}

describe('services hash scrolling: offset and delay', () => {
  it('offsets 120px under 768px width and 160px from 768px up', () => {
    expect(scrollOffset(375)).toBe(120);
    expect(scrollOffset(767)).toBe(120);
    expect(scrollOffset(767.5)).toBe(120);
    expect(scrollOffset(768)).toBe(160);
    expect(scrollOffset(1280)).toBe(160);
  });

  it('waits 800ms after a navigation and 1000ms for a hash present on load', () => {
    expect(scrollDelay(false)).toBe(800);
    expect(scrollDelay(true)).toBe(1000);
  });

  it('computes the scroll position that leaves the section at the offset', () => {
    // Section 900px below the viewport top while scrolled to 100: document top 1000.
    expect(scrollTopFor(900, 100, 1280)).toBe(1000 - 160);
    expect(scrollTopFor(900, 100, 375)).toBe(1000 - 120);
    // Never above the top of the page.
    expect(scrollTopFor(50, 0, 1280)).toBe(0);
  });
});

describe('services hash scrolling: target', () => {
  const page = root([
    el('section', 'intro'),
    el('section', 'market-entry', 'market-entry'),
    el('div', 'card', 'finance'),
    el('section', 'services-recruitment'),
    el('section', 'performance', 'performance'),
  ]);

  it('reads the name from the hash, decoded', () => {
    expect(hashName('#market-entry')).toBe('market-entry');
    expect(hashName('market-entry')).toBe('market-entry');
    expect(hashName('#%D8%A3')).toBe('أ');
    expect(hashName('#%E0%A4%A')).toBe('%E0%A4%A');
    expect(hashName('')).toBe('');
    expect(hashName('#')).toBe('');
    expect(hashName(undefined)).toBe('');
  });

  it('prefers the element with that id', () => {
    expect(resolveScrollTarget(page, '#market-entry')?.name).toBe('section#market-entry[market-entry]');
    expect(resolveScrollTarget(page, '#performance')?.id).toBe('performance');
  });

  it('falls back to an element with a matching data-id', () => {
    expect(resolveScrollTarget(page, '#finance')?.name).toBe('div#card[finance]');
  });

  it('then to a section whose id ends with the name', () => {
    expect(resolveScrollTarget(page, '#recruitment')?.id).toBe('services-recruitment');
    expect(resolveScrollTarget(page, '#entry')?.id).toBe('market-entry');
  });

  it('keeps the order: id before data-id before suffix', () => {
    const tricky = root([el('section', 'x-operations'), el('div', 'other', 'operations'), el('section', 'operations')]);
    expect(resolveScrollTarget(tricky, '#operations')?.tagName).toBe('SECTION');
    expect(resolveScrollTarget(tricky, '#operations')?.id).toBe('operations');
    const noId = root([el('section', 'x-operations'), el('div', 'other', 'operations')]);
    expect(resolveScrollTarget(noId, '#operations')?.id).toBe('other');
  });

  it('only sections count for the suffix rule, and an empty or unknown hash finds nothing', () => {
    const divs = root([el('div', 'launch-strategy')]);
    expect(resolveScrollTarget(divs, '#strategy')).toBeNull();
    expect(resolveScrollTarget(page, '#nothing-here')).toBeNull();
    expect(resolveScrollTarget(page, '')).toBeNull();
    expect(resolveScrollTarget(page, '#')).toBeNull();
  });
});
