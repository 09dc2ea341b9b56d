// @vitest-environment jsdom
/** A click in server-rendered rich text: which links become a client-side navigation (ADR 0035). */
import type { MouseEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { followSiteLink } from './RichText';

function click(
  html: string,
  init: Partial<Pick<MouseEvent, 'button' | 'metaKey' | 'ctrlKey' | 'shiftKey' | 'altKey'>> = {},
) {
  const container = document.createElement('div');
  container.innerHTML = html;
  const target = container.querySelector('a strong') ?? container.querySelector('a') ?? container.firstElementChild!;
  const navigate = vi.fn();
  const event = {
    button: 0,
    metaKey: false,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    ...init,
    defaultPrevented: false,
    target,
    currentTarget: container,
    preventDefault() {
      this.defaultPrevented = true;
    },
  };
  followSiteLink(event as unknown as MouseEvent<HTMLElement>, navigate);
  return { navigate, prevented: event.defaultPrevented };
}

describe('followSiteLink', () => {
  it('navigates client-side on a plain left click on a site link (also on an element inside it)', () => {
    const { navigate, prevented } = click('<p>See <a href="/ar/pricing?x=1#plans"><strong>prices</strong></a></p>');
    expect(prevented).toBe(true);
    expect(navigate).toHaveBeenCalledWith('/ar/pricing?x=1#plans', { replace: false });
  });

  it('replaces the history entry when the link is the address already shown', () => {
    window.history.replaceState(null, '', '/blog/post');
    expect(click('<a href="/blog/post">here</a>').navigate).toHaveBeenCalledWith('/blog/post', { replace: true });
  });

  it('leaves the browser to it otherwise', () => {
    window.history.replaceState(null, '', '/blog/post');
    const cases = [
      click('<a href="/about">a</a>', { metaKey: true }),
      click('<a href="/about">a</a>', { ctrlKey: true }),
      click('<a href="/about">a</a>', { shiftKey: true }),
      click('<a href="/about">a</a>', { altKey: true }),
      click('<a href="/about">a</a>', { button: 1 }),
      click('<a href="https://tax.gov.ae" target="_blank" rel="noopener noreferrer">a</a>'),
      click('<a href="https://tax.gov.ae">a</a>'),
      click('<a href="mailto:hello@example.com">a</a>'),
      click('<a href="/guide.pdf" download>a</a>'),
      click('<a href="#section-2">a</a>'),
      click('<a href="/blog/post#section-2">a</a>'),
      click('<p>no link</p>'),
    ];
    for (const { navigate, prevented } of cases) {
      expect(navigate).not.toHaveBeenCalled();
      expect(prevented).toBe(false);
    }
  });
});
