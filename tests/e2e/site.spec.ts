import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { PREVIEW_SECRET } from '../../playwright.config';
import { at, expectLanguage, expectNoRawKeys, hydrated, LOCALES, type Locale } from './helpers';

// The site pages (FAQ, legal pages, booking confirmation, SEO diagnostics), the
// redirects and the search engine files, in English and Arabic. Strings are the dataset's.
const SITE = 'https://www.bawaba-advisory.com';

const FAQ = {
  en: {
    title: 'Frequently Asked Questions',
    intro: 'Straight answers on UAE tax, company setup, banking and our packages.',
    categories: ['Taxes and Finance', 'Operations', 'Services', 'Pricing'],
    question: 'How long does it take to open a corporate bank account?',
    answer: 'Bank account approval usually takes 2-6 weeks',
  },
  ar: {
    title: 'الأسئلة الشائعة',
    intro: 'إجابات مباشرة عن الضرائب في الإمارات وتأسيس الشركات',
    categories: ['الضرائب والمالية', 'العمليات', 'الخدمات', 'الأسعار والباقات'],
    question: 'كم يستغرق فتح حساب مصرفي للشركة؟',
    answer: 'تستغرق الموافقة على الحساب المصرفي عادةً من 2 إلى 6 أسابيع',
  },
};

const LEGAL = {
  '/privacy-policy': {
    updated: '2026-11-29',
    en: { title: 'Privacy Policy', heading: 'Who we are', text: 'This privacy policy explains how Bawaba Advisory' },
    ar: { title: 'سياسة الخصوصية', heading: 'من نحن', text: 'توضح سياسة الخصوصية هذه كيف تجمع بوابة للاستشارات' },
  },
  '/terms-of-service': {
    updated: '2026-11-01',
    en: { title: 'Terms of Service', heading: 'About these terms', text: 'No legal, tax or financial opinion' },
    ar: { title: 'شروط الخدمة', heading: 'نطاق هذه الشروط', text: 'حدود المسؤولية' },
  },
  '/cookies-policy': {
    updated: '2026-11-29',
    en: { title: 'Cookies Policy', heading: 'What this policy covers', text: 'Strictly necessary cookies' },
    ar: { title: 'سياسة ملفات تعريف الارتباط', heading: 'نطاق هذه السياسة', text: 'ملفات تعريف الارتباط الضرورية' },
  },
} as const;
/** "Last updated" as each language writes the day (Arabic in its own month name, Western digits). */
const UPDATED: Record<string, { en: string; ar: RegExp }> = {
  '2026-11-01': { en: '1 November 2026', ar: /1\s+نوفمبر\s+2026/ },
  '2026-11-29': { en: '29 November 2026', ar: /29\s+نوفمبر\s+2026/ },
};

const BOOKING = {
  en: {
    title: 'Your Consultation Is Booked',
    confirmed: 'Confirmed',
    intro: 'Your 30-minute consultation is confirmed',
    nextSteps: 'What happens next',
  },
  ar: {
    title: 'تم حجز استشارتك',
    confirmed: 'مؤكَّد',
    intro: 'تم تأكيد استشارتك التي تستغرق 30 دقيقة',
    nextSteps: 'الخطوات التالية',
  },
};

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const texts = await page.locator('script[type="application/ld+json"]').allTextContents();
  return texts.map((t) => JSON.parse(t));
}

for (const locale of LOCALES) {
  test.describe(`site pages in ${locale}`, () => {
    test('FAQ: CMS intro, four categories with their questions, FAQPage JSON-LD', async ({ page }) => {
      const response = await page.goto(at(locale, '/faq'));
      expect(response?.status()).toBe(200);
      await expectLanguage(page, locale);
      const t = FAQ[locale];
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.title);
      await expect(page.locator('main')).toContainText(t.intro);
      await expect(page.locator('main h2').filter({ hasText: new RegExp(`^(${t.categories.join('|')})$`) })).toHaveText(
        t.categories,
      );
      for (const key of ['taxesFinance', 'operations', 'services', 'pricing']) {
        expect(await page.getByTestId(`faq-category-${key}`).locator('details').count()).toBeGreaterThanOrEqual(3);
      }
      await expect(page.locator('summary').filter({ hasText: t.question })).toBeVisible();
      const faqLd = (await jsonLd(page)).find((d) => d['@type'] === 'FAQPage');
      const entities = faqLd?.mainEntity as { name: string; acceptedAnswer: { text: string } }[];
      expect(entities.length).toBeGreaterThanOrEqual(12);
      expect(entities.find((q) => q.name === t.question)?.acceptedAnswer.text).toContain(t.answer);
      await expectNoRawKeys(page);
    });

    test('FAQ: the accordion opens and closes with the keyboard', async ({ page }) => {
      await page.goto(at(locale, '/faq'));
      const item = page.locator('details', { has: page.locator('summary', { hasText: FAQ[locale].question }) });
      const summary = item.locator('summary');
      const answer = item.getByText(FAQ[locale].answer);
      await expect(answer).toBeHidden();
      await summary.focus();
      await expect(summary).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(item).toHaveAttribute('open', '');
      await expect(answer).toBeVisible();
      await page.keyboard.press('Space');
      await expect(item).not.toHaveAttribute('open');
      await expect(answer).toBeHidden();
      // Reachable with Tab from the topic links.
      await page.locator(`a[href="#topic-pricing"]`).focus();
      await page.keyboard.press('Tab');
      await expect(page.locator('details summary').first()).toBeFocused();
    });

    test('FAQ: a link to a question opens it', async ({ page }) => {
      await page.goto(at(locale, '/faq#bank-account'));
      await expect(page.locator('#bank-account')).toHaveAttribute('open', '');
    });

    for (const [path, strings] of Object.entries(LEGAL)) {
      test(`legal page ${path}: title, last updated date, table of contents, body`, async ({ page }) => {
        const t = strings[locale];
        const response = await page.goto(at(locale, path));
        expect(response?.status()).toBe(200);
        await expectLanguage(page, locale);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.title);
        await expect(page.getByTestId('legal-updated')).toContainText(UPDATED[strings.updated]![locale]);
        await expect(page.getByTestId('legal-updated').locator('time')).toHaveAttribute('datetime', strings.updated);
        const toc = page.getByRole('navigation', { name: locale === 'en' ? 'On this page' : 'محتويات الصفحة' });
        await expect(toc.getByRole('link').first()).toHaveText(t.heading);
        await toc.getByRole('link').first().click();
        await expect(page).toHaveURL(/#section-1$/);
        await expect(page.locator('#section-1')).toHaveText(t.heading);
        await expect(page.getByTestId('legal-body')).toContainText(t.text);
        expect(await page.locator('title').textContent()).toContain(t.title);
        await expectNoRawKeys(page);
      });
    }

    // The legal page's content is HTML from its loader (ADR 0035): reached client-side, it is set
    // from the loader data, with the same table of contents, body and policy table.
    test('a legal page reached client-side from the footer shows its content, table and contents links', async ({
      page,
    }) => {
      const t = LEGAL['/privacy-policy'][locale];
      await page.goto(at(locale, '/'));
      await hydrated(page);
      await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 7));
      await page
        .getByTestId('site-footer')
        .locator(`a[href="${at(locale, '/privacy-policy')}"]`)
        .first()
        .click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.title);
      await expect(page.getByTestId('legal-body')).toContainText(t.text);
      await expect(page.getByTestId('retention-table')).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(7);
      const toc = page.getByRole('navigation', { name: locale === 'en' ? 'On this page' : 'محتويات الصفحة' });
      await toc.getByRole('link').last().click();
      await expect(page).toHaveURL(/#section-\d+$/);
      await expect(page.getByTestId('retention-table')).toBeInViewport();
      expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(7);
    });

    test('booking confirmation without parameters: Confirmed, CMS intro, next steps, noindex', async ({ page }) => {
      for (const path of ['/booking-confirmation', '/booking-confirmation/']) {
        const response = await page.goto(at(locale, path));
        expect(response?.status(), path).toBe(200);
        expect(response?.headers()['cache-control']).toContain('no-store');
        await expectLanguage(page, locale);
        await expect(page.getByTestId('booking-status')).toContainText(BOOKING[locale].confirmed);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(BOOKING[locale].title);
        await expect(page.locator('main')).toContainText(BOOKING[locale].intro);
        await expect(page.getByRole('heading', { name: BOOKING[locale].nextSteps })).toBeVisible();
        await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
        await expect(page.getByTestId('booking-test-notice')).toHaveCount(0);
        await expectNoRawKeys(page);
      }
    });

    test('booking confirmation with parameters: a summary of what could be read', async ({ page }) => {
      const query = new URLSearchParams({
        event_type_name: '30 Minute Consultation',
        invitee_full_name: 'Layla Haddad',
        invitee_email: 'layla@example.com',
        event_start_time: '2026-12-01T10:00:00+04:00',
        event_end_time: '2026-12-01T10:30:00+04:00',
        assigned_to: 'Omar Saleh',
        source: 'hero',
        debug: 'true',
      });
      const response = await page.goto(`${at(locale, '/booking-confirmation/BK-2041')}?${query}`);
      expect(response?.status()).toBe(200);
      await expect(page.getByTestId('booking-status')).toContainText(BOOKING[locale].confirmed);
      await expect(page.getByTestId('booking-summary-reference')).toHaveText('BK-2041');
      await expect(page.getByTestId('booking-summary-name')).toHaveText('Layla Haddad');
      await expect(page.getByTestId('booking-summary-email')).toHaveText('layla@example.com');
      await expect(page.getByTestId('booking-summary-event')).toHaveText('30 Minute Consultation');
      await expect(page.getByTestId('booking-summary-advisor')).toHaveText('Omar Saleh');
      // Names in Latin letters are read as English on the Arabic page, in the page language on the English one.
      for (const id of ['booking-summary-name', 'booking-summary-event', 'booking-summary-advisor']) {
        const value = page.getByTestId(id).locator('bdi');
        if (locale === 'ar') await expect(value).toHaveAttribute('lang', 'en');
        else await expect(value).not.toHaveAttribute('lang', /./);
      }
      await expect(page.getByTestId('booking-summary-when')).toContainText(
        locale === 'en' ? '1 December 2026' : 'ديسمبر',
      );
      await expect(page.getByTestId('booking-summary-when').locator('time')).toHaveAttribute(
        'datetime',
        '2026-12-01T06:00:00.000Z',
      );
      await expect(page.getByTestId('booking-test-notice')).toContainText('hero');
      // The canonical of a confirmation is the bare page, never the personal URL.
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        `${SITE}${at(locale, '/booking-confirmation')}`,
      );
      await expectNoRawKeys(page);
    });

    test('booking confirmation with hostile parameters: nothing runs, nothing raw is echoed', async ({ page }) => {
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      const query = new URLSearchParams({
        invitee_full_name: '<script>window.__pwned=1;alert(1)</script>',
        event_type_name: '<img src=x onerror="window.__pwned=2;alert(2)">',
        invitee_email: '"><script>alert(3)</script>@x.com',
        event_start_time: 'javascript:alert(4)',
        assigned_to: 'https://evil.example/login',
        source: '<svg onload=alert(5)>',
        booking_id: '../../etc/passwd',
        debug: '<b>yes</b>',
      });
      const response = await page.goto(
        `${at(locale, '/booking-confirmation/%3Cscript%3Ealert(6)%3C%2Fscript%3E')}?${query}&${'x'.repeat(2000)}=1`,
      );
      expect(response?.status()).toBe(200);
      await expect(page.getByTestId('booking-status')).toContainText(BOOKING[locale].confirmed);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(dialogs).toEqual([]);
      const main = page.locator('main');
      await expect(main).not.toContainText('script');
      await expect(main).not.toContainText('evil.example');
      await expect(main).not.toContainText('passwd');
      await expect(main.locator('img[src="x"], svg[onload]')).toHaveCount(0);
      await expect(page.getByTestId('booking-summary-name')).toHaveCount(0);
      await expect(page.getByTestId('booking-summary-when')).toHaveCount(0);
      await expect(page.getByTestId('booking-test-notice')).toHaveCount(0);
      const html = await response!.text();
      expect(html).not.toContain('<script>window.__pwned');
      expect(html).not.toContain('onerror="window');
    });

    test('SEO diagnostics: only for the team (a preview session), not for visitors', async ({ request }) => {
      const res = await request.get(at(locale, '/seo-diagnostics'));
      expect(res.status()).toBe(404);
      expect(await res.text()).not.toContain('seo-row');
    });

    test('a 404 of a portal or team page is titled as one, not as the home page', async ({ request }) => {
      const title = locale === 'en' ? 'Page not found | Bawaba Advisory' : 'الصفحة غير موجودة | بوابة للاستشارات';
      for (const path of ['/seo-diagnostics', '/checkout/cs_doesNotExist000000']) {
        const res = await request.get(at(locale, path));
        expect(res.status(), path).toBe(404);
        expect(/<title>([^<]*)<\/title>/.exec(await res.text())?.[1], path).toBe(title);
      }
    });

    test('SEO diagnostics: every public URL with title, canonical, alternates and missing Arabic; noindex', async ({
      page,
    }) => {
      const response = await page.goto(
        `/api/preview?secret=${PREVIEW_SECRET}&redirect=${encodeURIComponent(at(locale, '/seo-diagnostics'))}`,
      );
      expect(response?.status()).toBe(200);
      await expectLanguage(page, locale);
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        locale === 'en' ? 'SEO diagnostics' : 'تشخيص تحسين محركات البحث',
      );
      const rows = page.getByTestId('seo-row');
      const paths = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-path')));
      expect(paths).toContain('/');
      expect(paths).toContain('/faq');
      expect(paths).toContain('/privacy-policy');
      expect(paths).toContain('/blog/uae-vat-registration-guide');
      expect(paths).toContain('/case-studies/fintech-launch-uae');
      expect(paths).toContain('/blog/tag/free_zone');
      expect(paths).not.toContain('/seo-diagnostics');
      expect(paths.some((p) => p?.startsWith('/booking-confirmation'))).toBe(false);
      await expect(page.getByTestId('stat-urls')).toHaveText(String(paths.length * 2));
      const faq = page.locator('[data-testid="seo-row"][data-path="/faq"]');
      await expect(faq.locator('tr')).toHaveCount(2);
      await expect(faq).toContainText('FAQ: UAE Tax, Company Setup and Pricing | Bawaba Advisory');
      await expect(faq).toContainText(
        'الأسئلة الشائعة: الضرائب وتأسيس الشركات والأسعار في الإمارات | بوابة للاستشارات',
      );
      await expect(faq).toContainText(`${SITE}/faq`);
      await expect(faq).toContainText(`${SITE}/ar/faq`);
      await expect(faq).toContainText('x-default');
      // The bundled content is fully translated.
      await expect(page.getByTestId('stat-missing')).toHaveText('0');
      await expect(page.getByTestId('seo-other-none')).toBeVisible();
      await expectNoRawKeys(page);
    });

    for (const path of [
      '/faq',
      '/privacy-policy',
      '/booking-confirmation/BK-1?invitee_full_name=Layla+Haddad&event_start_time=2026-12-01T10:00:00Z&debug=1&source=hero',
      '/seo-diagnostics',
    ]) {
      test(`no accessibility violations on ${path.split('?')[0]} @phone`, async ({ page }) => {
        test.setTimeout(90_000);
        await page.goto(
          path === '/seo-diagnostics'
            ? `/api/preview?secret=${PREVIEW_SECRET}&redirect=${encodeURIComponent(at(locale, path))}`
            : at(locale, path),
        );
        if (path === '/faq') await page.locator('details summary').first().click();
        await expectNoAxeViolations(page);
      });
    }
  });
}

test.describe('redirects', () => {
  const cases: [string, string][] = [
    ['/contact', '/'],
    ['/contact/', '/'],
    ['/ar/contact', '/ar'],
    ['/ar/contact/', '/ar'],
    ['/bookingconfirmation', '/booking-confirmation'],
    ['/booking_confirmation', '/booking-confirmation'],
    ['/bookingconfirmation?booking_id=A1&source=hero', '/booking-confirmation?booking_id=A1&source=hero'],
    ['/booking_confirmation/?event_type_name=Call', '/booking-confirmation?event_type_name=Call'],
    ['/ar/bookingconfirmation', '/ar/booking-confirmation'],
    ['/ar/booking_confirmation?invitee_uuid=X9', '/ar/booking-confirmation?invitee_uuid=X9'],
  ];
  for (const [from, to] of cases) {
    test(`${from} -> ${to}`, async ({ request }) => {
      const res = await request.get(from, { maxRedirects: 0 });
      expect(res.status()).toBe(301);
      expect(
        new URL(res.headers()['location'], 'http://x').pathname + new URL(res.headers()['location'], 'http://x').search,
      ).toBe(to);
    });
  }

  test('a redirect ends on the page, in the right language', async ({ page }) => {
    await page.goto('/ar/booking_confirmation?booking_id=AB12');
    await expect(page).toHaveURL(/\/ar\/booking-confirmation\?booking_id=AB12$/);
    await expect(page.getByTestId('booking-summary-reference')).toHaveText('AB12');
    await expectLanguage(page, 'ar');
  });
});

test.describe('search engine files', () => {
  test('sitemap.xml: valid XML, every public page in English and Arabic with alternates', async ({ page, request }) => {
    const res = await request.get('/sitemap.xml');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('xml');
    const xml = await res.text();
    await page.goto('/robots.txt');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      if (doc.getElementsByTagName('parsererror').length) return null;
      const ns = 'http://www.sitemaps.org/schemas/sitemap/0.9';
      return [...doc.getElementsByTagNameNS(ns, 'url')].map((u) => ({
        loc: u.getElementsByTagNameNS(ns, 'loc')[0]?.textContent ?? '',
        lastmod: u.getElementsByTagNameNS(ns, 'lastmod')[0]?.textContent ?? null,
        alternates: [...u.getElementsByTagNameNS('http://www.w3.org/1999/xhtml', 'link')].map((l) => [
          l.getAttribute('hreflang'),
          l.getAttribute('href'),
        ]),
      }));
    }, xml);
    expect(parsed, 'sitemap is well-formed XML').not.toBeNull();
    const urls = parsed!;
    const locs = urls.map((u) => u.loc);
    expect(new Set(locs).size).toBe(locs.length);
    const en = locs.filter((l) => !/^https:\/\/www\.bawaba-advisory\.com\/ar(\/|$)/.test(l));
    const ar = locs.filter((l) => /^https:\/\/www\.bawaba-advisory\.com\/ar(\/|$)/.test(l));
    expect(en.length).toBe(ar.length);
    for (const l of en) {
      const path = l.slice(SITE.length);
      expect(ar, path).toContain(SITE + (path === '/' ? '/ar' : `/ar${path}`));
    }
    for (const u of urls) {
      expect(u.loc.startsWith(`${SITE}/`)).toBe(true);
      expect(u.alternates.map((a) => a[0])).toEqual(['en', 'ar', 'x-default']);
      expect(u.alternates.map((a) => a[1])).toContain(u.loc);
      if (u.lastmod) expect(Number.isNaN(Date.parse(u.lastmod))).toBe(false);
    }
    for (const path of [
      '/',
      '/about',
      '/services',
      '/pricing',
      '/faq',
      '/case-studies',
      '/blog',
      '/privacy-policy',
      '/terms-of-service',
      '/cookies-policy',
      '/blog/uae-vat-registration-guide',
      '/blog/category/market_insights',
      '/blog/tag/uae',
      '/case-studies/fintech-launch-uae',
    ]) {
      expect(locs, path).toContain(SITE + path);
      expect(locs, path).toContain(SITE + (path === '/' ? '/ar' : `/ar${path}`));
    }
    expect(locs.some((l) => /seo-diagnostics|booking-confirmation|contact|not-found|first-90-days/.test(l))).toBe(
      false,
    );
    expect(urls.find((u) => u.loc === `${SITE}/privacy-policy`)?.lastmod).toBe(LEGAL['/privacy-policy'].updated);
    expect(urls.find((u) => u.loc === `${SITE}/ar/blog/uae-vat-registration-guide`)?.lastmod).toMatch(/^2026-/);
    // The pages this build owns answer at their sitemap URL.
    for (const path of [
      '/faq',
      '/ar/faq',
      '/privacy-policy',
      '/ar/terms-of-service',
      '/cookies-policy',
      '/ar/cookies-policy',
    ]) {
      expect((await request.get(path)).status(), path).toBe(200);
    }
  });

  test('robots.txt: allow all, keep crawlers off the internal and personal pages, point to the sitemap', async ({
    request,
  }) => {
    const res = await request.get('/robots.txt');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('text/plain');
    const lines = (await res.text()).split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Allow: /');
    for (const path of [
      '/seo-diagnostics',
      '/ar/seo-diagnostics',
      '/booking-confirmation',
      '/ar/booking-confirmation',
    ]) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });
});

test('the Arabic pages mark nothing as English when Arabic exists, and the English ones stay English', async ({
  page,
}) => {
  for (const locale of ['en', 'ar'] as Locale[]) {
    await page.goto(at(locale, '/privacy-policy'));
    await expect(page.getByTestId('legal-body')).not.toHaveAttribute('lang', 'en');
  }
});
