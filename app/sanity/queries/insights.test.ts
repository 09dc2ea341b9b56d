import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedContentClient } from '../embedded.server';
import type { QueryDefinition } from '../groq';
import type { z } from 'zod';
import {
  BLOG_CATEGORY_QUERY,
  BLOG_INDEX_QUERY,
  BLOG_POST_QUERY,
  BLOG_TAG_QUERY,
  CASE_STUDIES_QUERY,
  CASE_STUDY_QUERY,
} from './insights';

let client: EmbeddedContentClient;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'insights-'));
  client = new EmbeddedContentClient({ datasetFile: path.resolve('studio/dataset/production.ndjson'), dataDir });
});
afterAll(async () => {
  client.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function run<S extends z.ZodType>(q: QueryDefinition<S>, params: Record<string, unknown>): Promise<z.infer<S>> {
  return q.schema.parse(await client.fetch(q.query, params, { perspective: 'published' }));
}

describe('insights queries over the bundled dataset', () => {
  it('blog index: intro, featured post, a page of the others, popular tags and categories', async () => {
    const en = await run(BLOG_INDEX_QUERY, { lang: 'en', start: 0, end: 6, tagLimit: 8 });
    expect(en.page.title).toBe('Insights');
    expect(en.featured?.slug).toBe('free-zone-vs-mainland-uae-company');
    expect(en.total).toBe(8);
    expect(en.posts).toHaveLength(6);
    expect(en.posts.map((p) => p.slug)).not.toContain('free-zone-vs-mainland-uae-company');
    const dates = en.posts.map((p) => p.publishedAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(en.popularTags[0]).toMatchObject({ slug: 'uae', title: 'UAE', count: 6 });
    expect(en.popularTags.length).toBeLessThanOrEqual(8);
    expect(en.categories.map((c) => c.slug).sort()).toEqual([
      'business',
      'finance',
      'legal',
      'market_insights',
      'strategy',
      'technology',
    ]);
    expect(en.posts[0].readBody.length).toBeGreaterThan(3);

    const ar = await run(BLOG_INDEX_QUERY, { lang: 'ar', start: 6, end: 12, tagLimit: 8 });
    expect(ar.page.title).toBe('رؤى ومقالات');
    expect(ar.posts).toHaveLength(2);
    expect(ar.popularTags[0].title).toBe('الإمارات');
  });

  it('category and tag listings, and null for unknown slugs', async () => {
    const cat = await run(BLOG_CATEGORY_QUERY, { lang: 'ar', slug: 'finance', start: 0, end: 6 });
    expect(cat.category?.title).toBe('المالية');
    expect(cat.category?.total).toBe(2);
    expect(cat.category?.posts.every((p) => p.category?.slug === 'finance')).toBe(true);
    expect(cat.blogTitle).toBe('رؤى ومقالات');
    expect((await run(BLOG_CATEGORY_QUERY, { lang: 'en', slug: 'nope', start: 0, end: 6 })).category).toBeNull();

    const tag = await run(BLOG_TAG_QUERY, { lang: 'en', slug: 'uae', start: 0, end: 6, tagLimit: 8 });
    expect(tag.tag?.title).toBe('UAE');
    expect(tag.tag?.total).toBe(6);
    expect(tag.tag?.posts).toHaveLength(6);
    expect((await run(BLOG_TAG_QUERY, { lang: 'en', slug: 'nope', start: 0, end: 6, tagLimit: 8 })).tag).toBeNull();
  });

  it('listings are sliced in GROQ: the slice bounds pick the page, the count is of all posts', async () => {
    const whole = await run(BLOG_TAG_QUERY, { lang: 'en', slug: 'uae', start: 0, end: 6, tagLimit: 8 });
    const second = await run(BLOG_TAG_QUERY, { lang: 'en', slug: 'uae', start: 2, end: 4, tagLimit: 8 });
    expect(second.tag?.total).toBe(6);
    expect(second.tag?.posts.map((p) => p.slug)).toEqual(whole.tag?.posts.slice(2, 4).map((p) => p.slug));
    // A page past the end: no posts, the count unchanged (the page turns it into a 404 with paginate()).
    const past = await run(BLOG_TAG_QUERY, { lang: 'en', slug: 'uae', start: 6, end: 12, tagLimit: 8 });
    expect(past.tag?.posts).toEqual([]);
    expect(past.tag?.total).toBe(6);
    const index = await run(BLOG_INDEX_QUERY, { lang: 'en', start: 6, end: 12, tagLimit: 8 });
    expect(index.posts.map((p) => p.slug)).not.toContain('free-zone-vs-mainland-uae-company');
    expect(index.featured?.slug).toBe('free-zone-vs-mainland-uae-company');
    const cat = await run(BLOG_CATEGORY_QUERY, { lang: 'en', slug: 'finance', start: 1, end: 6 });
    expect(cat.category?.posts.map((p) => p.slug)).toEqual(['uae-corporate-tax-explained']);
  });

  it('a post with its localized body, terms and related posts; drafts stay out', async () => {
    const r = await run(BLOG_POST_QUERY, { lang: 'ar', slug: 'uae-corporate-tax-explained', relatedLimit: 3 });
    expect(r.post?.title).toMatch(/ضريبة الشركات/);
    expect(r.post?.category?.slug).toBe('finance');
    expect(r.post?.tags.map((t) => t.slug)).toContain('taxation');
    expect(r.post?.body.some((b) => b._type === 'image')).toBe(true);
    expect(r.site?.brandName).toBe('بوابة للاستشارات');
    // Finance + 3 shared tags (5), then finance + 1 shared tag (3) ahead of a newer post with
    // 2 shared tags and no shared category (2).
    expect(r.post?.related.map((p) => p.slug)).toEqual([
      'uae-vat-registration-guide',
      'uae-record-keeping-five-year-rule',
      'hiring-and-visas-first-uae-team',
    ]);
    expect(r.post?.related[0].title).toMatch(/ضريبة القيمة المضافة/);
    expect(
      (await run(BLOG_POST_QUERY, { lang: 'en', slug: 'first-90-days-after-your-uae-licence', relatedLimit: 3 })).post,
    ).toBeNull();
  });

  it('case studies: list and detail with four results and a testimonial', async () => {
    const list = await run(CASE_STUDIES_QUERY, { lang: 'en' });
    expect(list.items.map((i) => i.key)).toEqual(['techStartup', 'manufacturing', 'retailExpansion', 'fintechLaunch']);
    const one = await run(CASE_STUDY_QUERY, { lang: 'ar', slug: 'tech-startup-dubai-launch' });
    expect(one.study?.results.map((r) => r.text)).toEqual([
      'إصدار الرخصة التجارية خلال 3 أسابيع',
      'الموافقة على الحساب المصرفي للشركة خلال 4 أسابيع',
      'الحصول على الرخصة وبدء العمل في دبي خلال 7 أسابيع',
      'إصدار 5 تأشيرات إقامة في الربع الأول',
    ]);
    expect(one.study?.testimonial?.author).toBe('دانيال ت.');
    expect(one.listTitle).toBe('دراسات الحالة');
    expect(one.others).toHaveLength(3);
    expect((await run(CASE_STUDY_QUERY, { lang: 'en', slug: 'nope' })).study).toBeNull();
  });
});
