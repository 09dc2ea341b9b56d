import { describe, expect, it } from 'vitest';
import type { ServerBuild } from '@remix-run/node';
import { routeMatcher } from './routes';

const route = (id: string, path: string | undefined, parentId?: string, index?: boolean) => ({
  [id]: { id, path, parentId, index, module: {} },
});
const routes = {
  ...route('root', ''),
  ...route('locale-en', undefined, 'root'),
  ...route('locale-ar', 'ar', 'root'),
  ...route('home-en', undefined, 'locale-en', true),
  ...route('blog-en', 'insights/:slug', 'locale-en'),
  ...route('blog-index-en', 'insights', 'locale-en'),
  ...route('blog-ar', 'insights/:slug', 'locale-ar'),
  ...route('nf-en', '*', 'locale-en'),
  ...route('nf-ar', '*', 'locale-ar'),
  ...route('sitemap', 'sitemap.xml', 'root'),
} as unknown as ServerBuild['routes'];

describe('routeMatcher', () => {
  const match = routeMatcher(routes);
  it('names the pattern, not the path', () => {
    expect(match('/insights/vat-in-the-uae')).toBe('/insights/:slug');
    expect(match('/ar/insights/x')).toBe('/ar/insights/:slug');
    expect(match('/insights')).toBe('/insights');
    expect(match('/sitemap.xml')).toBe('/sitemap.xml');
    expect(match('/')).toBe('/');
    expect(match('/ar')).toBe('/ar');
  });
  it('gives a data request its page and an unknown path the splat', () => {
    expect(match('/insights/x.data')).toBe('/insights/:slug');
    expect(match('/_root.data')).toBe('/');
    expect(match('/no/such/page')).toBe('/*');
    expect(match('/ar/no/such')).toBe('/ar/*');
  });
});
