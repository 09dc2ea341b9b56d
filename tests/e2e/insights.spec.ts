import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readTimeMinutes } from '../../app/features/blog/read-time';
import { at, expectLanguage, expectNoRawKeys, hydrated, LOCALES, type Locale } from './helpers';
import { kill, startOwnServer, type OwnServer } from './own-server';

// The blog and the case studies, in both languages, checked against the bundled dataset itself.

type Doc = { _id: string; _type: string; [field: string]: any };
const DATASET = path.resolve('studio/dataset/production.ndjson');
const docs: Doc[] = readFileSync(DATASET, 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line))
  .filter((d: Doc) => !d._id.startsWith('drafts.'));
const byType = (type: string) => docs.filter((d) => d._type === type);
const L = (field: any, locale: Locale): string => field?.[locale] || field?.en;

const posts = byType('blogPost').sort((a, b) => b.publishedAt.localeCompare(a.publishedAt));
const categories = byType('blogCategory');
const tags = byType('blogTag');
const caseStudies = byType('caseStudy').sort((a, b) => a.order - b.order);
const featured = posts.find((p) => p.featured)!;
const blogLanding = docs.find((d) => d._id === 'landingPage-blog')!;
const casesLanding = docs.find((d) => d._id === 'landingPage-caseStudies')!;
const postsWithTag = (tagId: string) => posts.filter((p) => p.tags?.some((t: any) => t._ref === tagId));

const TEXT = {
  en: {
    tag: (tag: string) => `Tag: ${tag}`,
    showing: 'Showing posts with tag',
    back: 'Back to all articles',
    emptyTitle: 'No posts found with this tag',
    emptyText: 'Try a different tag or browse all posts',
    readTime: (n: number) => `${n} min read`,
    notFound: 'Page not found',
  },
  ar: {
    tag: (tag: string) => `الوسم: ${tag}`,
    showing: 'عرض المقالات التي تحمل الوسم',
    back: 'العودة إلى جميع المقالات',
    emptyTitle: 'لا توجد مقالات بهذا الوسم',
    emptyText: 'جرّب وسماً آخر أو تصفّح جميع المقالات',
    readTime: (n: number) =>
      n === 1
        ? 'دقيقة واحدة للقراءة'
        : n === 2
          ? 'دقيقتان للقراءة'
          : n <= 10
            ? `${n} دقائق للقراءة`
            : `${n} دقيقة للقراءة`,
    notFound: 'الصفحة غير موجودة',
  },
} as const;

const formatDate = (iso: string, locale: Locale) =>
  new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'ar-AE', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Asia/Dubai',
  }).format(new Date(iso));

/** Interface keys of this area must never reach a page either. */
async function expectNoInsightsKeys(page: Page) {
  await expectNoRawKeys(page);
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/\b(?:insights:|breadcrumb\.|blog\.|pagination\.|caseStudies\.)[a-z][A-Za-z]+/);
}

async function jsonLd(page: Page): Promise<any[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((text) => JSON.parse(text));
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Every image in the page content has a size, alt text in the page's language, and lazy loading unless it is a priority image. */
async function expectGoodImages(page: Page, locale: Locale) {
  const images = await page.locator('#main img').evaluateAll((imgs) =>
    imgs.map((img) => ({
      alt: img.getAttribute('alt'),
      width: img.getAttribute('width'),
      height: img.getAttribute('height'),
      loading: img.getAttribute('loading'),
      priority: img.getAttribute('fetchpriority'),
    })),
  );
  expect(images.length).toBeGreaterThan(0);
  for (const img of images) {
    expect(Number(img.width)).toBeGreaterThan(0);
    expect(Number(img.height)).toBeGreaterThan(0);
    expect(img.alt?.trim()).toBeTruthy();
    if (locale === 'ar') expect(img.alt).toMatch(/[\u0600-\u06FF]/);
    expect(img.loading).toBe(img.priority === 'high' ? 'eager' : 'lazy');
  }
}

for (const locale of LOCALES) {
  const T = TEXT[locale];

  test.describe(`blog in ${locale}`, () => {
    test('the blog page: intro, featured post, recent posts, popular tags, categories', async ({ page }) => {
      const response = await page.goto(at(locale, '/blog'));
      expect(response?.status()).toBe(200);
      await expectLanguage(page, locale);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(L(blogLanding.title, locale));
      await expect(page.getByTestId('blog-index')).toContainText(L(blogLanding.intro, locale));

      const feature = page.getByTestId('featured-post');
      await expect(feature.getByRole('heading', { level: 2 })).toHaveText(L(featured.title, locale));
      await expect(feature.getByRole('link')).toHaveAttribute('href', at(locale, `/blog/${featured.slug.current}`));
      await expect(feature.getByTestId('read-time')).toHaveText(T.readTime(readTimeMinutes(featured.body[locale])));

      // Recent posts: newest first, the featured one not repeated, six to a page.
      const others = posts.filter((p) => p !== featured);
      const cards = page.getByTestId('recent-posts').getByTestId('post-card');
      await expect(cards).toHaveCount(6);
      await expect(cards.getByRole('heading')).toHaveText(others.slice(0, 6).map((p) => L(p.title, locale)));
      const first = cards.first();
      await expect(first).toContainText(L(categories.find((c) => c._id === others[0].category._ref)!.title, locale));
      await expect(first).toContainText(L(others[0].excerpt, locale).slice(0, 40));
      await expect(first).toContainText(formatDate(others[0].publishedAt, locale));
      await expect(first.getByTestId('read-time')).toHaveText(T.readTime(readTimeMinutes(others[0].body[locale])));

      // Popular tags by post count, linking to their pages.
      const uae = tags.find((t) => t.slug.current === 'uae')!;
      const tagLinks = page.getByTestId('popular-tags').getByRole('link');
      await expect(tagLinks.first()).toHaveAttribute('href', at(locale, '/blog/tag/uae'));
      await expect(tagLinks.first()).toContainText(L(uae.title, locale));
      const counts = await tagLinks.evaluateAll((links) =>
        links.map((a) => Number(a.querySelector('[aria-hidden="true"]:last-child')?.textContent)),
      );
      expect([...counts].sort((a, b) => b - a)).toEqual(counts);

      // Every category, linking to its page.
      const catLinks = page.getByTestId('categories').getByRole('link');
      await expect(catLinks).toHaveCount(categories.length);
      for (const c of categories) {
        await expect(
          page.getByTestId('categories').locator(`a[href="${at(locale, `/blog/category/${c.slug.current}`)}"]`),
        ).toContainText(L(c.title, locale));
      }
      await expectGoodImages(page, locale);
      await expectNoInsightsKeys(page);
    });

    test('pagination: ?page=2, rel prev/next, out-of-range pages are 404', async ({ page, request }) => {
      const others = posts.filter((p) => p !== featured);
      await page.goto(at(locale, '/blog'));
      await expect(page.locator('link[rel="next"]')).toHaveAttribute(
        'href',
        new RegExp(`${at(locale, '/blog')}\\?page=2$`),
      );
      await expect(page.locator('link[rel="prev"]')).toHaveCount(0);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        `https://www.bawaba-advisory.com${at(locale, '/blog')}`,
      );
      const pager = page.getByTestId('pagination');
      await expect(pager.locator('[aria-current="page"]')).toContainText('1');
      await pager
        .locator(`a[href="${at(locale, '/blog')}?page=2"]`)
        .first()
        .click();
      await expect(page).toHaveURL(new RegExp(`${at(locale, '/blog')}\\?page=2$`));
      await expect(page.getByTestId('featured-post')).toHaveCount(0);
      await expect(page.getByTestId('recent-posts').getByTestId('post-card').getByRole('heading')).toHaveText(
        others.slice(6, 12).map((p) => L(p.title, locale)),
      );

      const response = await page.goto(at(locale, '/blog?page=2'));
      expect(response?.status()).toBe(200);
      await expect(page.locator('link[rel="prev"]')).toHaveAttribute('href', new RegExp(`${at(locale, '/blog')}$`));
      await expect(page.locator('link[rel="next"]')).toHaveCount(0);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        `https://www.bawaba-advisory.com${at(locale, '/blog')}?page=2`,
      );
      await expect(page.getByTestId('pagination').locator('a[rel="prev"]')).toHaveAttribute(
        'href',
        at(locale, '/blog'),
      );

      const lastPage = Math.ceil(others.length / 6);
      for (const bad of [`?page=${lastPage + 1}`, '?page=0', '?page=abc', '?page=-1', '?page=1.5']) {
        expect((await request.get(at(locale, `/blog${bad}`))).status(), bad).toBe(404);
      }
      const notFound = await page.goto(at(locale, `/blog?page=${lastPage + 1}`));
      expect(notFound?.status()).toBe(404);
      await expect(page.getByTestId('not-found')).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(T.notFound);
    });

    test('every category page lists its posts with the category title', async ({ page }) => {
      test.slow();
      for (const category of categories) {
        const response = await page.goto(at(locale, `/blog/category/${category.slug.current}`));
        expect(response?.status(), category.slug.current).toBe(200);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(L(category.title, locale));
        await expect(page.getByTestId('blog-category')).toContainText(L(category.description, locale));
        const expected = posts.filter((p) => p.category._ref === category._id).map((p) => L(p.title, locale));
        await expect(page.getByTestId('post-card').getByRole('heading')).toHaveText(expected);
        await expect(page.getByTestId('back-link').first()).toHaveAttribute('href', at(locale, '/blog'));
      }
      await expectNoInsightsKeys(page);
    });

    test('every tag page: the tag texts, its posts, the back link', async ({ page }) => {
      test.slow();
      for (const tag of tags) {
        const response = await page.goto(at(locale, `/blog/tag/${tag.slug.current}`));
        expect(response?.status(), tag.slug.current).toBe(200);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(T.tag(L(tag.title, locale)));
        await expect(page.getByTestId('tag-showing')).toContainText(T.showing);
        await expect(page.getByTestId('tag-showing')).toContainText(L(tag.title, locale));
        const back = page.getByRole('link', { name: T.back });
        await expect(back.first()).toHaveAttribute('href', at(locale, '/blog'));
        await expect(page.getByTestId('post-card').getByRole('heading')).toHaveText(
          postsWithTag(tag._id).map((p) => L(p.title, locale)),
        );
        await expect(page.getByTestId('tag-empty')).toHaveCount(0);
      }
      await expectNoInsightsKeys(page);
    });

    test('every post: title, author, date, read time, category, tags, cover, body, related posts', async ({ page }) => {
      test.slow();
      for (const post of posts) {
        const response = await page.goto(at(locale, `/blog/${post.slug.current}`));
        expect(response?.status(), post.slug.current).toBe(200);
        const article = page.getByTestId('blog-post');
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(L(post.title, locale));
        await expect(article).toContainText(L(post.author, locale));
        await expect(article.locator('header time')).toHaveText(formatDate(post.publishedAt, locale));
        await expect(article.locator('header').getByTestId('read-time')).toHaveText(
          T.readTime(readTimeMinutes(post.body[locale])),
        );
        const category = categories.find((c) => c._id === post.category._ref)!;
        await expect(page.getByTestId('post-category')).toHaveText(L(category.title, locale));
        await expect(page.getByTestId('post-category')).toHaveAttribute(
          'href',
          at(locale, `/blog/category/${category.slug.current}`),
        );
        const tagLinks = page.getByTestId('post-tags').getByRole('link');
        await expect(tagLinks).toHaveCount(post.tags.length);
        for (const ref of post.tags) {
          const tag = tags.find((t) => t._id === ref._ref)!;
          await expect(
            page.getByTestId('post-tags').locator(`a[href="${at(locale, `/blog/tag/${tag.slug.current}`)}"]`),
          ).toContainText(L(tag.title, locale));
        }
        // The body, in the page's language (first paragraph and every heading).
        const body = page.getByTestId('post-body');
        const firstText = post.body[locale]
          .find((b: any) => b._type === 'block')
          .children.map((c: any) => c.text)
          .join('');
        await expect(body).toContainText(firstText.slice(0, 60));
        const headings = post.body[locale]
          .filter((b: any) => b.style === 'h2')
          .map((b: any) => b.children.map((c: any) => c.text).join(''));
        await expect(body.locator('h2')).toHaveText(headings);
        // The cover loads first; the body images lazily.
        const cover = article.locator('img').first();
        await expect(cover).toHaveAttribute('fetchpriority', 'high');
        await expect(cover).toHaveAttribute('alt', L(post.coverImage.alt, locale));
        // Related: up to three others, sharing the category or a tag.
        const related = page.getByTestId('related-posts').getByTestId('post-card');
        expect(await related.count()).toBeGreaterThan(0);
        expect(await related.count()).toBeLessThanOrEqual(3);
        for (const title of await related.getByRole('heading').allTextContents()) {
          const other = posts.find((p) => L(p.title, locale) === title)!;
          expect(other, title).toBeTruthy();
          expect(other).not.toBe(post);
          const shares =
            other.category._ref === post.category._ref ||
            other.tags.some((t: any) => post.tags.some((u: any) => u._ref === t._ref));
          expect(shares, title).toBe(true);
        }
      }
    });

    test('a post carries Article and BreadcrumbList JSON-LD and article meta', async ({ page }) => {
      const post = posts.find((p) => p.slug.current === 'uae-corporate-tax-explained')!;
      await page.goto(at(locale, `/blog/${post.slug.current}`));
      const data = await jsonLd(page);
      const articleLd = data.find((d) => d['@type'] === 'Article');
      expect(articleLd).toMatchObject({
        '@context': 'https://schema.org',
        headline: L(post.title, locale),
        datePublished: post.publishedAt,
        inLanguage: locale,
        author: { '@type': 'Person', name: L(post.author, locale) },
        publisher: { '@type': 'Organization', name: locale === 'en' ? 'Bawaba Advisory' : 'بوابة للاستشارات' },
        url: `https://www.bawaba-advisory.com${at(locale, `/blog/${post.slug.current}`)}`,
      });
      expect(articleLd.image[0]).toMatch(/^https:\/\/www\.bawaba-advisory\.com\/images\//);
      const crumbs = data.find((d) => d['@type'] === 'BreadcrumbList');
      expect(crumbs.itemListElement.map((i: any) => i.position)).toEqual([1, 2, 3, 4]);
      expect(crumbs.itemListElement.at(-1)).toMatchObject({ name: L(post.title, locale), item: articleLd.url });
      expect(crumbs.itemListElement[1].item).toBe(`https://www.bawaba-advisory.com${at(locale, '/blog')}`);
      await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
      await expect(page.locator('meta[property="article:published_time"]')).toHaveAttribute(
        'content',
        post.publishedAt,
      );
      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
        'content',
        /^https:\/\/www\.bawaba-advisory\.com\/images\//,
      );
      await expect(page).toHaveTitle(
        new RegExp(
          L(post.seo.title, locale)
            .slice(0, 20)
            .replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        ),
      );
      await expectGoodImages(page, locale);
      await expectNoInsightsKeys(page);
    });

    test('unknown posts, categories and tags are real 404s, and drafts stay unpublished', async ({ page, request }) => {
      for (const p of [
        '/blog/no-such-post',
        '/blog/category/no-such-category',
        '/blog/tag/no-such-tag',
        '/blog/first-90-days-after-your-uae-licence',
        '/blog/category/uae',
        '/blog/tag/finance-and-tax',
      ]) {
        expect((await request.get(at(locale, p))).status(), p).toBe(404);
      }
      const response = await page.goto(at(locale, '/blog/tag/no-such-tag'));
      expect(response?.status()).toBe(404);
      await expectLanguage(page, locale);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(T.notFound);
      await expect(page).toHaveTitle(new RegExp(T.notFound));
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    });
  });

  test.describe(`case studies in ${locale}`, () => {
    test('the list: intro and four case studies linking to their pages', async ({ page }) => {
      const response = await page.goto(at(locale, '/case-studies'));
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(L(casesLanding.title, locale));
      await expect(page.getByTestId('case-studies')).toContainText(L(casesLanding.intro, locale));
      const cards = page.getByTestId('case-study-card');
      await expect(cards).toHaveCount(4);
      await expect(cards.getByRole('heading')).toHaveText(caseStudies.map((c) => L(c.title, locale)));
      for (const [i, c] of caseStudies.entries()) {
        await expect(cards.nth(i).getByRole('link')).toHaveAttribute(
          'href',
          at(locale, `/case-studies/${c.slug.current}`),
        );
        await expect(cards.nth(i)).toContainText(L(c.client, locale));
        await expect(cards.nth(i)).toContainText(L(c.industry, locale));
      }
      const crumbs = (await jsonLd(page)).find((d) => d['@type'] === 'BreadcrumbList');
      expect(crumbs.itemListElement).toHaveLength(2);
      await expectGoodImages(page, locale);
      await expectNoInsightsKeys(page);
    });

    test('every case study: client, industry, location, challenge, solution, four results, testimonial, JSON-LD', async ({
      page,
    }) => {
      test.slow();
      for (const c of caseStudies) {
        const response = await page.goto(at(locale, `/case-studies/${c.slug.current}`));
        expect(response?.status(), c.slug.current).toBe(200);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(L(c.title, locale));
        await expect(page.getByTestId('case-client')).toContainText(L(c.client, locale));
        await expect(page.getByTestId('case-industry')).toContainText(L(c.industry, locale));
        await expect(page.getByTestId('case-location')).toContainText(L(c.location, locale));
        await expect(page.getByTestId('case-challenge')).toContainText(L(c.challenge, locale));
        await expect(page.getByTestId('case-solution')).toContainText(L(c.solution, locale));
        await expect(page.getByTestId('case-results').locator('li')).toHaveText(
          c.results.map((r: any) => L(r, locale)),
        );
        const quote = page.getByTestId('case-testimonial');
        await expect(quote.locator('blockquote')).toHaveText(L(c.testimonial.quote, locale));
        await expect(quote.locator('figcaption')).toContainText(L(c.testimonial.author, locale));
        await expect(quote.locator('figcaption')).toContainText(L(c.testimonial.position, locale));
        await expect(page.getByTestId('case-study').locator('img').first()).toHaveAttribute('fetchpriority', 'high');
        const crumbs = (await jsonLd(page)).find((d) => d['@type'] === 'BreadcrumbList');
        expect(crumbs.itemListElement.map((i: any) => i.name)).toEqual([
          locale === 'en' ? 'Home' : 'الرئيسية',
          L(casesLanding.title, locale),
          L(c.title, locale),
        ]);
        expect(crumbs.itemListElement[2].item).toBe(
          `https://www.bawaba-advisory.com${at(locale, `/case-studies/${c.slug.current}`)}`,
        );
      }
      await expectGoodImages(page, locale);
      await expectNoInsightsKeys(page);
    });

    test('an unknown case study is a real 404', async ({ page }) => {
      const response = await page.goto(at(locale, '/case-studies/no-such-case'));
      expect(response?.status()).toBe(404);
      await expect(page.getByTestId('not-found')).toBeVisible();
    });
  });

  test.describe(`insights accessibility in ${locale} @phone`, () => {
    for (const p of [
      '/blog',
      '/blog?page=2',
      '/blog/category/finance',
      '/blog/tag/uae',
      '/blog/uae-corporate-tax-explained',
      '/case-studies',
      '/case-studies/retail-expansion-uae-stores',
    ]) {
      test(`no WCAG A/AA violations on ${p}`, async ({ page }) => {
        await page.goto(at(locale, p));
        await expectNoAxeViolations(page);
        // One page title, and headings that never skip a level.
        await expect(page.locator('#main h1')).toHaveCount(1);
        const levels = await page
          .locator('#main')
          .locator('h1, h2, h3, h4')
          .evaluateAll((hs) => hs.map((h) => Number(h.tagName[1])));
        for (let i = 1; i < levels.length; i++)
          expect(levels[i] - levels[i - 1], `heading ${i} on ${p}`).toBeLessThanOrEqual(1);
      });
    }
  });
}

test('internal links inside Arabic article bodies point to /ar/...', async ({ page }) => {
  test.slow();
  let checked = 0;
  for (const post of posts) {
    const sitePaths = JSON.stringify(post.body.ar).match(/"href":"\/[^"]*"/g) ?? [];
    if (!sitePaths.length) continue;
    await page.goto(at('ar', `/blog/${post.slug.current}`));
    const hrefs = await page
      .getByTestId('post-body')
      .locator('a[href^="/"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    expect(hrefs.length, post.slug.current).toBe(sitePaths.length);
    for (const href of hrefs) expect(href, post.slug.current).toMatch(/^\/ar(\/|$)/);
    checked += hrefs.length;
  }
  expect(checked).toBeGreaterThan(5);
  // ... and in English they stay unprefixed.
  await page.goto('/blog/uae-corporate-tax-explained');
  for (const href of await page
    .getByTestId('post-body')
    .locator('a[href^="/"]')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) {
    expect(href).not.toMatch(/^\/ar\b/);
  }
});

test('a post link opens the article client-side, and the language switch keeps the article', async ({ page }) => {
  await page.goto('/blog');
  await hydrated(page);
  await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 7));
  await page.getByTestId('recent-posts').getByTestId('post-card').first().getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/blog/${posts.filter((p) => p !== featured)[0].slug.current}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    L(posts.filter((p) => p !== featured)[0].title, 'en'),
  );
  // Client-side: the same document, no reload.
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(7);
  await page.getByRole('button', { name: /Language/ }).click();
  await page.getByRole('menuitemradio', { name: 'العربية' }).click();
  await expect(page).toHaveURL(new RegExp(`/ar/blog/${posts.filter((p) => p !== featured)[0].slug.current}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    L(posts.filter((p) => p !== featured)[0].title, 'ar'),
  );
  await expectNoInsightsKeys(page);
});

// The body is HTML from the server (ADR 0035): a plain left click on a site link in it still
// navigates client-side, an outside link still opens in a new tab, and a body rendered in the
// browser after a client-side navigation behaves the same.
test('a site link inside an article body navigates client-side; an outside link opens a new tab', async ({ page }) => {
  const post = posts.find((p) => p.slug.current === 'uae-corporate-tax-explained')!;
  await page.goto(at('ar', `/blog/${post.slug.current}`));
  await hydrated(page);
  await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 7));
  const body = page.getByTestId('post-body');
  const outside = body.locator('a[href^="https://"]').first();
  await expect(outside).toHaveAttribute('target', '_blank');
  await expect(outside).toHaveAttribute('rel', 'noopener noreferrer');
  await body.locator('a[href="/ar/faq"]').first().click();
  await expect(page).toHaveURL(/\/ar\/faq$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The same document: no reload.
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(7);
  // Back to the article, now rendered in the browser from the loader's HTML: its links work the same.
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(L(post.title, 'ar'));
  await body.locator('a[href="/ar/pricing"]').first().click();
  await expect(page).toHaveURL(/\/ar\/pricing$/);
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(7);
});

// React 18's streaming renderer can leave NUL bytes at its 2 KB buffer edges when a multi-byte
// character would straddle one (facebook/react#31134); browsers show them as U+FFFD inside
// Arabic words. Every page of this area must arrive clean.
test('the served HTML of the blog and case studies holds no NUL bytes', async ({ request }) => {
  test.slow();
  const paths = [
    '/blog',
    '/blog?page=2',
    ...categories.map((c) => `/blog/category/${c.slug.current}`),
    ...tags.map((t) => `/blog/tag/${t.slug.current}`),
    ...posts.map((p) => `/blog/${p.slug.current}`),
    '/case-studies',
    ...caseStudies.map((c) => `/case-studies/${c.slug.current}`),
  ];
  const dirty: string[] = [];
  for (const locale of LOCALES) {
    for (const p of paths) {
      const body = await (await request.get(at(locale, p))).body();
      if (body.includes(0)) dirty.push(at(locale, p));
    }
  }
  expect(dirty).toEqual([]);
});

/**
 * A tag that exists but has no posts: the dataset tags every one of its eleven tags, so
 * this runs a server of its own over a copy of the dataset with one more, unused tag.
 */
test.describe('a tag without posts', () => {
  test.describe.configure({ mode: 'serial' });
  let server: OwnServer | undefined;
  let origin = '';
  let dir = '';

  test.beforeAll(async ({}, workerInfo) => {
    const port = Number(process.env.E2E_PORT ?? 3210) + 200 + workerInfo.workerIndex;
    origin = `http://127.0.0.1:${port}`;
    dir = path.resolve(`test-results/insights-empty-tag-${port}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const extra = {
      _id: 'blogTag-customs',
      _type: 'blogTag',
      slug: { _type: 'slug', current: 'customs' },
      title: { _type: 'localeString', en: 'Customs', ar: 'الجمارك' },
    };
    writeFileSync(
      path.join(dir, 'production.ndjson'),
      readFileSync(DATASET, 'utf8').trimEnd() + '\n' + JSON.stringify(extra) + '\n',
    );
    symlinkSync(path.resolve('studio/dataset/images'), path.join(dir, 'images'));
    server = await startOwnServer(port, path.join(dir, 'data'), {
      NODE_ENV: 'production',
      SITE_URL: 'https://www.bawaba-advisory.com',
      CONTENT_DATASET_FILE: path.join(dir, 'production.ndjson'),
    });
    expect((await fetch(`${origin}/blog`)).status).toBe(200);
  });

  test.afterAll(async () => {
    if (server) await kill(server, 'SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  for (const locale of LOCALES) {
    test(`shows the empty state in ${locale}`, async ({ page }) => {
      const T = TEXT[locale];
      const response = await page.goto(`${origin}${at(locale, '/blog/tag/customs')}`);
      expect(response?.status()).toBe(200);
      await expectLanguage(page, locale);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(T.tag(locale === 'en' ? 'Customs' : 'الجمارك'));
      await expect(page.getByTestId('tag-showing')).toContainText(T.showing);
      const empty = page.getByTestId('tag-empty');
      await expect(empty).toContainText(T.emptyTitle);
      await expect(empty).toContainText(T.emptyText);
      await expect(empty.getByRole('link', { name: T.back })).toHaveAttribute('href', at(locale, '/blog'));
      await expect(page.getByTestId('post-card')).toHaveCount(0);
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
      expect((await page.request.get(`${origin}${at(locale, '/blog/tag/customs?page=2')}`)).status()).toBe(404);
      await expectNoInsightsKeys(page);
      await expectNoAxeViolations(page);
    });
  }
});
