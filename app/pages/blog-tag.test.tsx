// @vitest-environment jsdom
/**
 * The blog tag page's loader, run through Remix's router (createRemixStub) on the bundled
 * dataset: a known tag gives its localized title and its posts, an unknown tag a 404 with the
 * localized "not found" title, in both languages.
 */
import { isRouteErrorResponse, useLoaderData, useRouteError } from '@remix-run/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderRoute } from '~/lib/route-stub.test-support';
import { loader } from './blog-tag';

function Page() {
  const { tag, pagination, posts } = useLoaderData<typeof loader>();
  return (
    <p data-done data-testid="page" data-total={pagination.total} data-posts={posts.length}>
      {tag.title}
    </p>
  );
}

function Boundary() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) return <p data-done>unexpected: {String(error)}</p>;
  return (
    <p data-done data-testid="error" data-status={error.status}>
      {(error.data as { title?: string } | null)?.title}
    </p>
  );
}

const routes = ['/blog/tag/:tagSlug', '/ar/blog/tag/:tagSlug'].map((path) => ({
  path,
  loader,
  Component: Page,
  ErrorBoundary: Boundary,
}));

beforeAll(() => {
  // The embedded world on the bundled dataset; nothing written to the repository's data folder.
  process.env.SESSION_SECRET ??= 'route-test-session-secret-0123456789abcdef';
});

describe('blog tag loader', () => {
  it.each([
    ['/blog/tag/abu_dhabi', 'Abu Dhabi'],
    ['/ar/blog/tag/abu_dhabi', 'أبوظبي'],
  ])('%s: the tag in its language, with its posts', async (url, title) => {
    const page = (await renderRoute(routes, url)).querySelector('[data-testid="page"]');
    expect(page?.textContent).toBe(title);
    expect(Number(page?.getAttribute('data-total'))).toBeGreaterThan(0);
    expect(Number(page?.getAttribute('data-posts'))).toBe(Number(page?.getAttribute('data-total')));
  });

  it.each([
    ['/blog/tag/no_such_tag', 'Page not found'],
    ['/ar/blog/tag/no_such_tag', 'الصفحة غير موجودة'],
    ['/blog/tag/abu_dhabi?page=abc', 'Page not found'],
  ])('%s: 404 with the localized title', async (url, title) => {
    const error = (await renderRoute(routes, url)).querySelector('[data-testid="error"]');
    expect(error?.getAttribute('data-status')).toBe('404');
    expect(error?.textContent).toBe(title);
  });
});
