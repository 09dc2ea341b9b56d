// Remix's <Link> and <NavLink> are patched for server renders (patches/@remix-run+react+*.patch,
// ADR 0016): with no document they render React Router's anchor directly instead of running
// React Router's components. The browser hydrates that HTML with the unpatched components, so
// the two must render the same markup. Each case here is rendered on one static data router
// (as Remix renders a page) twice: with the server's patched copy (dist/components.js) and with
// the browser's unpatched copy (dist/esm), and the two HTML strings must be equal.
import { createRequire } from 'node:module';
import type { ComponentType, ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
type Links = { Link: ComponentType<Record<string, unknown>>; NavLink: ComponentType<Record<string, unknown>> };
const serverCopy = require('@remix-run/react') as Links;
const { createStaticHandler, createStaticRouter, StaticRouterProvider } =
  require('react-router-dom/server.js') as typeof import('react-router-dom/server');

// The browser's copy, as the browser bundle has it (imported by path: the package has no types for it).
const browserCopyPath = '@remix-run/react/dist/esm/index.js';
const browserCopyOf = async () => (await import(/* @vite-ignore */ browserCopyPath)) as Links;

async function render(url: string, element: ReactNode, basename?: string) {
  const routes = [{ id: 'page', path: '*', element }];
  const handler = createStaticHandler(routes, { basename });
  const context = await handler.query(new Request(`http://localhost${url}`));
  if (context instanceof Response) throw new Error('unexpected response');
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

/** One link per target, each showing its target. */
const linksTo = (Link: Links['Link'], targets: string[]) =>
  targets.map((to) => (
    <Link key={to} to={to}>
      {to}
    </Link>
  ));

type Case = [name: string, url: string, tree: (c: Links) => ReactNode];
const cases: Case[] = [
  [
    'plain internal link with class and children',
    '/ar/blog',
    ({ Link }) => (
      <Link to="/ar/services" className="pill">
        خدماتنا <span>›</span>
      </Link>
    ),
  ],
  [
    'props in an odd order, data and aria attributes',
    '/',
    ({ Link }) => <Link data-testid="logo" aria-label="Home" to="/" title="t" />,
  ],
  [
    'target, rel and reloadDocument (no data-discover)',
    '/',
    ({ Link }) => <Link to="/api/x.pdf" reloadDocument target="_blank" rel="noopener" />,
  ],
  [
    'discover="none"',
    '/',
    ({ Link }) => (
      <Link to="/faq" discover="none">
        FAQ
      </Link>
    ),
  ],
  [
    'absolute URLs, external and same origin',
    '/',
    ({ Link }) => linksTo(Link, ['https://example.com/a?b=1#c', '//cdn.example.com/y', 'http://localhost/blog']),
  ],
  [
    'relative targets, search and hash',
    '/ar/blog/tag/uae',
    ({ Link }) => (
      <>
        {linksTo(Link, ['..', 'next', '?page=2', '#list', '.'])}
        <Link to="x" relative="path">
          rel
        </Link>
      </>
    ),
  ],
  [
    'an object target',
    '/blog',
    ({ Link }) => <Link to={{ pathname: '/blog', search: '?page=3', hash: '#top' }}>3</Link>,
  ],
  [
    'navigation-only props are dropped',
    '/',
    ({ Link }) => (
      <Link to="/a" state={{ a: 1 }} replace preventScrollReset viewTransition prefetch="intent" onClick={() => {}}>
        a
      </Link>
    ),
  ],
  [
    'prefetch="render" (nothing prefetched on the server)',
    '/',
    ({ Link }) => (
      <Link to="/pricing" prefetch="render">
        p
      </Link>
    ),
  ],
  [
    'a style object',
    '/',
    ({ Link }) => (
      <Link to="/a" style={{ color: 'red' }}>
        a
      </Link>
    ),
  ],
  [
    'NavLink, active and inactive, with a class name function',
    '/ar/services',
    ({ NavLink }) => (
      <>
        {['/ar', '/ar/services', '/ar/about'].map((to) => (
          <NavLink
            key={to}
            to={to}
            end={to === '/ar'}
            className={({ isActive }: { isActive: boolean }) => (isActive ? 'on' : 'off')}
          >
            {to}
          </NavLink>
        ))}
      </>
    ),
  ],
  [
    'NavLink defaults: "active" class, aria-current, a prefix match',
    '/blog/post-1',
    ({ NavLink }) => (
      <>
        <NavLink to="/blog" className="nav">
          Blog
        </NavLink>
        <NavLink to="/blog" end>
          exact
        </NavLink>
        <NavLink to="/BLOG">case</NavLink>
        <NavLink to="/BLOG" caseSensitive>
          case-sensitive
        </NavLink>
        <NavLink to="/blog/" aria-current="true">
          slash
        </NavLink>
      </>
    ),
  ],
  [
    'NavLink with style and children functions',
    '/faq',
    ({ NavLink }) => (
      <NavLink to="/faq" style={({ isActive }: { isActive: boolean }) => ({ fontWeight: isActive ? 700 : 400 })}>
        {({ isActive }: { isActive: boolean }) => (isActive ? 'here' : 'there')}
      </NavLink>
    ),
  ],
];

describe('server-rendered links match what the browser hydrates', () => {
  it('the server loads the patched copy (a reinstall without the patch fails here)', () => {
    const source = require('node:fs').readFileSync(require.resolve('@remix-run/react/dist/components.js'), 'utf8');
    expect(source).toContain('function serverNavAnchor(');
  });

  for (const [name, url, tree] of cases)
    it(name, async () => {
      const browserCopy = await browserCopyOf();
      expect(browserCopy.Link).not.toBe(serverCopy.Link);
      const server = await render(url, tree(serverCopy));
      const browser = await render(url, tree(browserCopy));
      expect(server).toContain('<a');
      expect(server).toBe(browser);
    });

  it('a basename is applied as React Router applies it', async () => {
    const tree = ({ Link, NavLink }: Links) => (
      <>
        <Link to="/blog">b</Link>
        <NavLink to="/faq">f</NavLink>
      </>
    );
    const browserCopy = await browserCopyOf();
    expect(await render('/site/faq', tree(serverCopy), '/site')).toBe(
      await render('/site/faq', tree(browserCopy), '/site'),
    );
  });
});
