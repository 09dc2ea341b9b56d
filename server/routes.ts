import type { ServerBuild } from '@remix-run/node';

/**
 * The route pattern a path belongs to (`/ar/insights/:slug`), for the request log and the
 * metrics' `route` label: never the raw URL, whose slugs and queries are unbounded and may be
 * personal. Made from the build's own route table, ranked as React Router ranks matches (static
 * segments first, then dynamic ones, splats last). A single-fetch data request (`/x.data`) has
 * its page's pattern. Kept for 1,000 paths, then emptied.
 */
export function routeMatcher(routes: ServerBuild['routes']): (pathname: string) => string {
  const full = (id: string): string => {
    const route = routes[id];
    if (!route) return '';
    const parent = route.parentId ? full(route.parentId) : '';
    return route.path ? `${parent}/${route.path}`.replace(/\/+/g, '/') : parent;
  };
  const patterns = [...new Set(Object.keys(routes).map((id) => full(id) || '/'))].map((pattern) => {
    const segments = pattern.split('/').filter(Boolean);
    let score = 0;
    const source = segments
      .map((segment) => {
        if (segment === '*') return ((score -= 2), '(?:/.*)?');
        const optional = segment.endsWith('?');
        const bare = optional ? segment.slice(0, -1) : segment;
        const part = bare.startsWith(':') ? ((score += 3), '/[^/]+') : ((score += 10), `/${escape(bare)}`);
        return optional ? `(?:${part})?` : part;
      })
      .join('');
    return { pattern, score, test: new RegExp(`^${source}/?$`, 'i') };
  });
  patterns.sort((a, b) => b.score - a.score);
  const seen = new Map<string, string>();
  return (pathname) => {
    const path = pathname === '/_root.data' ? '/' : pathname.replace(/\.data$/, '');
    let found = seen.get(path);
    if (found !== undefined) return found;
    found = patterns.find((p) => p.test.test(path))?.pattern ?? 'unmatched';
    if (seen.size >= 1000) seen.clear();
    seen.set(path, found);
    return found;
  };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
