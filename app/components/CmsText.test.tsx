// @vitest-environment jsdom
/**
 * CmsText on a page whose loader reports English stand-ins (`englishFallbacks`, as loadQuery
 * does): the stand-in is marked lang="en" dir="ltr" on an Arabic page only, translated text is
 * left alone, empty text renders nothing, and a render function replaces the bare text.
 */
import { describe, expect, it } from 'vitest';
import { renderRoute } from '~/lib/route-stub.test-support';
import { CmsText } from './CmsText';

function Page() {
  return (
    <div data-done>
      <CmsText as="h3" text="Market entry" id="t" className="title" data-testid="stand-in" />
      <CmsText text="دخول السوق" data-testid="translated" />
      <CmsText as="span" text="" data-testid="empty" />
      <CmsText as="span" text={null} data-testid="missing" />
      <CmsText as="span" text="Acme LLC" data-testid="wrapped">
        {(text) => <bdi>{text}</bdi>}
      </CmsText>
    </div>
  );
}

const routes = ['/page', '/ar/page'].map((path) => ({
  path,
  loader: () => ({ englishFallbacks: ['Market entry', 'Acme LLC'] }),
  Component: Page,
}));

describe('CmsText', () => {
  it('marks an English stand-in on an Arabic page, and renders nothing for empty text', async () => {
    const page = await renderRoute(routes, '/ar/page');
    const standIn = page.querySelector('[data-testid="stand-in"]')!;
    expect(standIn.outerHTML).toBe(
      '<h3 id="t" class="title" data-testid="stand-in" lang="en" dir="ltr">Market entry</h3>',
    );
    const translated = page.querySelector('[data-testid="translated"]')!;
    expect(translated.tagName).toBe('P');
    expect(translated.hasAttribute('lang')).toBe(false);
    expect(page.querySelector('[data-testid="empty"]')).toBeNull();
    expect(page.querySelector('[data-testid="missing"]')).toBeNull();
    expect(page.querySelector('[data-testid="wrapped"]')!.outerHTML).toBe(
      '<span data-testid="wrapped" lang="en" dir="ltr"><bdi>Acme LLC</bdi></span>',
    );
  });

  it('leaves English text unmarked on an English page', async () => {
    const page = await renderRoute(routes, '/page');
    expect(page.querySelector('[data-testid="stand-in"]')!.hasAttribute('lang')).toBe(false);
    expect(page.querySelector('[data-testid="wrapped"]')!.innerHTML).toBe('<bdi>Acme LLC</bdi>');
  });
});
