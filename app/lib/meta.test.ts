import type { MetaArgs } from '@remix-run/node';
import { describe, expect, it } from 'vitest';
import { layoutRouteIds } from '~/route-table.js';
import { landingMeta } from './meta';
import type { ShellData } from './shell';

const shell = {
  locale: 'en',
  siteUrl: 'https://example.test',
  shell: { settings: { brandName: 'Bawaba', seo: { title: 'Site title', description: 'Site description' } } },
} as unknown as ShellData;
const args = {
  matches: [{ id: layoutRouteIds.en, data: shell }] as unknown as MetaArgs['matches'],
  location: { pathname: '/about', search: '', hash: '', state: null, key: 'k' },
};
/** The value of the page's <title>, or of its description tag. */
function tag(meta: ReturnType<typeof landingMeta>, key: 'title' | 'description') {
  const all = meta as Record<string, unknown>[];
  return key === 'title' ? all.find((m) => 'title' in m)?.title : all.find((m) => m.name === 'description')?.content;
}

describe('landingMeta', () => {
  it("prefers the page's SEO fields", () => {
    const meta = landingMeta(args, {
      title: 'About',
      intro: 'Intro',
      seo: { title: 'About us', description: 'Who we are' },
    });
    expect(tag(meta, 'title')).toBe('About us | Bawaba');
    expect(tag(meta, 'description')).toBe('Who we are');
  });

  it('falls back to the title and intro, then to the site defaults', () => {
    const page = landingMeta(args, { title: 'About', intro: 'Intro', seo: { title: null, description: null } });
    expect([tag(page, 'title'), tag(page, 'description')]).toEqual(['About | Bawaba', 'Intro']);
    const none = landingMeta(args, undefined);
    expect([tag(none, 'title'), tag(none, 'description')]).toEqual(['Site title | Bawaba', 'Site description']);
  });
});
