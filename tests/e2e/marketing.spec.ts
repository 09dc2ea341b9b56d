import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { at, expectLanguage, expectNoRawKeys, hydrated, isMobile, LOCALES, type Locale } from './helpers';

// Real strings from studio/dataset/src/{home,services,about,pricing,pages}.mjs.
const CONTENT = {
  en: {
    headline: 'Your Gateway to Business Success in the UAE',
    highlight: 'UAE',
    trusted: 'A trusted partner to founders and boards from Asia, Europe and the Gulf',
    businessesLaunched: '500+ businesses launched',
    reasonsTitle: 'Why the UAE',
    servicesTitle: 'Our Services',
    services: [
      'Market Entry',
      'Business Setup',
      'Launch Strategy',
      'Operations',
      'Recruitment',
      'Performance Management',
    ],
    strategyTitle: 'Schedule a Strategy Session',
    strategyOption: 'Free zone or mainland: choosing the right licence',
    authors: ['Daniel Tan', 'Rajesh Menon', 'Sofia Marchetti'],
    result: 'Licensed and trading in Dubai within 7 weeks',
    statLabels: [
      'Foreign investment increase',
      'GDP growth',
      'New businesses',
      'Corporate tax for qualifying free zone firms',
    ],
    categories: ['Connectivity', 'Technology', 'Business Environment', 'Industry'],
    trendLabels: ['Expanding', 'Accelerating', 'Stable', 'Rising'],
    homeTitle: 'Bawaba Advisory | Your Gateway to Business in the UAE',
    homeDescription: /Market entry, company setup and growth advisory for the UAE/,
    servicesPageTitle: 'Our Advisory Services',
    servicesIntro: /From the first market assessment/,
    feature: 'Market sizing and competitor mapping',
    setup: ['Free Zone Establishment', 'Mainland Company', 'Branch Office', 'LLC Setup'],
    aboutTitle: 'About Bawaba Advisory',
    aboutBody: 'Who we are',
    values: ['Clarity', 'Integrity', 'Partnership', 'Results'],
    mission: /To make entering and growing in the UAE straightforward/,
    pricingTitle: 'Advisory Packages',
    plans: ['Starter', 'Business', 'Enterprise'],
    popular: 'Most Popular',
    perMonth: 'per month',
    subscribe: 'Subscribe',
    keyArea: 'Market entry assessment',
    reports: [
      '1 business report per month',
      'Up to 2 business reports per month',
      'Up to 3 business reports per month',
    ],
    bookConsultation: 'Book a Consultation',
    ourServices: 'Our Services',
    explore: 'Explore All Our Services',
  },
  ar: {
    headline: 'بوابتك إلى نجاح أعمالك في الإمارات',
    highlight: 'الإمارات',
    trusted: 'شريك موثوق لمؤسسين ومجالس إدارة من آسيا وأوروبا والخليج',
    businessesLaunched: 'أكثر من 500 شركة أطلقناها',
    reasonsTitle: 'لماذا الإمارات',
    servicesTitle: 'خدماتنا',
    services: ['دخول السوق', 'تأسيس الشركات', 'استراتيجية الإطلاق', 'العمليات', 'التوظيف', 'إدارة الأداء'],
    strategyTitle: 'احجز جلسة استراتيجية',
    strategyOption: 'المنطقة الحرة أم البر الرئيسي: اختيار الرخصة المناسبة',
    authors: ['دانيال تان', 'راجيش مينون', 'صوفيا ماركيتي'],
    result: 'حصلت على الرخصة وبدأت العمل في دبي خلال 7 أسابيع',
    statLabels: [
      'زيادة في الاستثمار الأجنبي',
      'نمو الناتج المحلي الإجمالي',
      'منشأة جديدة',
      'ضريبة الشركات على شركات المناطق الحرة المؤهلة',
    ],
    categories: ['الربط الجوي', 'التكنولوجيا', 'بيئة الأعمال', 'الصناعة'],
    trendLabels: ['في توسّع', 'في تسارع', 'مستقر', 'في ارتفاع'],
    homeTitle: 'بوابة للاستشارات | بوابتك إلى الأعمال في الإمارات',
    homeDescription: /استشارات دخول السوق وتأسيس الشركات والنمو في الإمارات/,
    servicesPageTitle: 'خدماتنا الاستشارية',
    servicesIntro: /من التقييم الأول للسوق/,
    feature: 'تقدير حجم السوق ورصد المنافسين',
    setup: ['التأسيس في المنطقة الحرة', 'شركة في البر الرئيسي', 'فرع لشركة أجنبية', 'تأسيس شركة ذات مسؤولية محدودة'],
    aboutTitle: 'عن بوابة للاستشارات',
    aboutBody: 'من نحن',
    values: ['الوضوح', 'النزاهة', 'الشراكة', 'النتائج'],
    mission: /أن نجعل دخول السوق الإماراتي والنمو فيه/,
    pricingTitle: 'الباقات الاستشارية',
    plans: ['الأساسية', 'الأعمال', 'المؤسسات'],
    popular: 'الأكثر طلباً',
    perMonth: 'شهرياً',
    subscribe: 'اشترك الآن',
    keyArea: 'تقييم دخول السوق',
    reports: ['تقرير أعمال واحد شهرياً', 'ما يصل إلى تقريرَي أعمال شهرياً', 'ما يصل إلى 3 تقارير أعمال شهرياً'],
    bookConsultation: 'احجز استشارة',
    ourServices: 'خدماتنا',
    explore: 'استكشف جميع خدماتنا',
  },
} satisfies Record<Locale, unknown>;

const ANCHORS = ['market-entry', 'business-setup', 'launch-strategy', 'operations', 'recruitment', 'performance'];
const PRICES_SGD = [950, 1900, 3800];
const TRENDS = [
  { key: 'expanding', tone: 'green' },
  { key: 'accelerating', tone: 'green' },
  { key: 'stable', tone: 'blue' },
  { key: 'rising', tone: 'green' },
];

/** Interface keys of the marketing namespace must never reach the page either. */
async function expectNoMarketingKeys(page: Page) {
  await expectNoRawKeys(page);
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/\bmarketing:[a-z]/i);
  expect(text).not.toMatch(/\b(?:home|trends|services|about|pricing|columns)\.[a-z][A-Za-z]+\b/);
}

/** Where an element's top sits in the viewport. */
const topOf = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => Math.round(el.getBoundingClientRect().top));

for (const locale of LOCALES) {
  const c = CONTENT[locale];

  test.describe(`marketing pages in ${locale}`, () => {
    test('home: hero, services, call to action, testimonials, statistics and indicators from the CMS @phone', async ({
      page,
    }, testInfo) => {
      const response = await page.goto(at(locale, '/'));
      expect(response?.status()).toBe(200);
      await expectLanguage(page, locale);

      // Hidden H1, one per page.
      const h1 = page.locator('h1');
      await expect(h1).toHaveCount(1);
      await expect(h1).toHaveClass(/sr-only/);

      // Hero.
      await expect(page.locator('#hero-title')).toHaveText(c.headline);
      const highlight = page.getByTestId('hero-highlight');
      await expect(highlight).toHaveText(c.highlight);
      await expect(highlight).toHaveClass(/text-gold-700/);
      await expect(page.getByTestId('hero-trusted')).toHaveText(c.trusted);
      await expect(page.getByTestId('businesses-launched')).toHaveText(c.businessesLaunched);
      await expect(page.getByRole('heading', { name: c.reasonsTitle })).toBeVisible();
      await expect(page.getByTestId('hero-services')).toHaveAttribute('href', at(locale, '/services'));
      await expect(page.getByTestId('hero-services')).toHaveText(c.ourServices);
      await expect(page.getByTestId('book-hero')).toHaveText(c.bookConsultation);

      // The hero image is above the fold: eager, high priority, with size and alt; the rest lazy.
      const heroImg = page.locator('section[aria-labelledby="hero-title"] img').first();
      await expect(heroImg).toHaveAttribute('loading', 'eager');
      await expect(heroImg).toHaveAttribute('fetchpriority', 'high');
      await expect(heroImg).toHaveAttribute('width', /\d+/);
      await expect(heroImg).toHaveAttribute('height', /\d+/);
      await expect(heroImg).toHaveAttribute('alt', locale === 'en' ? /arched gateway/ : /بوابة مقوّسة/);
      for (const img of await page.getByTestId('testimonials').locator('img').all()) {
        await expect(img).toHaveAttribute('loading', 'lazy');
        await expect(img).toHaveAttribute('alt', /.+/);
      }

      // Top padding: 60px on phones, 160px on desktop.
      const padding = await page.getByTestId('home').evaluate((el) => getComputedStyle(el).paddingTop);
      expect(padding).toBe(isMobile(testInfo) ? '60px' : '160px');

      // Services overview.
      const overview = page.getByTestId('services-overview');
      await expect(overview.getByRole('heading', { level: 2, name: c.servicesTitle })).toBeVisible();
      await expect(overview.locator('[data-testid^="service-card-"] h3')).toHaveText(c.services);
      for (const anchor of ANCHORS) {
        await expect(overview.getByTestId(`service-card-${anchor}`)).toHaveAttribute(
          'href',
          at(locale, `/services#${anchor}`),
        );
      }
      await expect(page.getByTestId('explore-services')).toHaveText(c.explore);
      await expect(page.getByTestId('explore-services')).toHaveAttribute('href', at(locale, '/services'));

      // Strategy session call to action.
      const cta = page.getByTestId('strategy-cta');
      await expect(cta.getByRole('heading', { name: c.strategyTitle })).toBeVisible();
      await expect(cta.getByRole('listitem')).toHaveCount(5);
      await expect(cta).toContainText(c.strategyOption);
      await expect(cta.getByTestId('book-cta')).toBeVisible();

      // Testimonials.
      const testimonials = page.getByTestId('testimonials');
      for (const [i, key] of ['techStartup', 'manufacturing', 'retail'].entries()) {
        await expect(testimonials.getByTestId(`testimonial-${key}`)).toContainText(c.authors[i]);
      }
      await expect(testimonials.getByTestId('testimonial-techStartup')).toContainText(c.result);
      await expect(testimonials.getByTestId('testimonial-techStartup')).toContainText('Lumen Analytics');
      await expect(page.getByTestId('case-studies-link')).toHaveAttribute('href', at(locale, '/case-studies'));

      // Statistics.
      const stats = page.getByTestId('statistic');
      await expect(stats).toHaveCount(4);
      await expect(stats.locator('p').first()).toHaveText('68%');
      await expect(page.getByTestId('statistics').locator('h3')).toHaveText(c.statLabels);
      await expect(page.getByTestId('statistics')).toContainText('16,000+');

      // Indicators: a real table with a caption and headers.
      const table = page.getByTestId('indicators').locator('table');
      await expect(table.locator('caption')).toHaveCount(1);
      await expect(table.locator('thead th[scope="col"]')).toHaveCount(5);
      await expect(table.locator('tbody th[scope="row"]')).toHaveText(c.categories);
      await expect(table.locator('tbody tr')).toHaveCount(4);
      await expect(table).toContainText('240+');
      await expect(table.locator('tbody a').first()).toHaveAttribute('target', '_blank');
      await expect(table.locator('tbody a').first()).toHaveAttribute('rel', /noopener/);

      await expectNoMarketingKeys(page);
    });

    test('home: title, description and canonical from the CMS', async ({ page }) => {
      await page.goto(at(locale, '/'));
      await expect(page).toHaveTitle(c.homeTitle);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', c.homeDescription);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        `https://www.bawaba-advisory.com${at(locale, '/')}`,
      );
    });

    test('home: trend badges are coloured by the trend key and labelled in the page language', async ({ page }) => {
      await page.goto(at(locale, '/'));
      const badges = page.getByTestId('trend-badge');
      await expect(badges).toHaveCount(4);
      await expect(badges).toHaveText(c.trendLabels);
      for (const [i, { key, tone }] of TRENDS.entries()) {
        const badge = badges.nth(i);
        await expect(badge).toHaveAttribute('data-trend', key);
        await expect(badge).toHaveAttribute('data-tone', tone);
        await expect(badge).toHaveClass(new RegExp(`\\bbg-${tone}-100\\b`));
      }
      // The colours really differ on screen.
      const colors = await badges.evaluateAll((els) => els.map((el) => getComputedStyle(el).backgroundColor));
      expect(colors[0]).toBe(colors[1]);
      expect(colors[2]).not.toBe(colors[0]);
    });

    test('the indicators table stacks its rows on phones: nothing to scroll sideways, in the table or the page @phone', async ({
      page,
    }, testInfo) => {
      test.skip(!isMobile(testInfo), 'phones only');
      await page.goto(at(locale, '/'));
      const scroller = page.getByTestId('indicators-scroll');
      const { scrollWidth, clientWidth } = await scroller.evaluate((el) => ({
        scrollWidth: el.scrollWidth,
        clientWidth: el.clientWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      // Still a table to assistive technology, with its row headers.
      await expect(page.getByRole('table')).toHaveCount(1);
      await expect(page.getByRole('rowheader')).toHaveCount(4);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    });

    test('services: six sections with ids, features and the four setup options', async ({ page }) => {
      const response = await page.goto(at(locale, '/services'));
      expect(response?.status()).toBe(200);
      await expectLanguage(page, locale);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(c.servicesPageTitle);
      await expect(page.getByTestId('services-page')).toContainText(c.servicesIntro);
      const sections = page.getByTestId('service-section');
      await expect(sections).toHaveCount(6);
      for (const [i, anchor] of ANCHORS.entries()) {
        const section = page.locator(`section#${anchor}`);
        await expect(section).toHaveAttribute('data-id', anchor);
        await expect(section.getByRole('heading', { level: 2 })).toHaveText(c.services[i]);
        expect(await section.locator('li').count()).toBeGreaterThanOrEqual(5);
      }
      await expect(page.locator('section#market-entry')).toContainText(c.feature);
      await expect(page.getByTestId('setup-options').locator('h3')).toHaveText(c.setup);
      await expect(page).toHaveTitle(/\|/);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        `https://www.bawaba-advisory.com${at(locale, '/services')}`,
      );
      await expectNoMarketingKeys(page);
    });

    test('about: title, intro, body, mission, vision, values, claims and image', async ({ page }) => {
      const response = await page.goto(at(locale, '/about'));
      expect(response?.status()).toBe(200);
      await expectLanguage(page, locale);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(c.aboutTitle);
      await expect(page.getByRole('heading', { level: 2, name: c.aboutBody, exact: true })).toBeVisible();
      await expect(page.getByTestId('about-mission-vision')).toContainText(c.mission);
      await expect(page.getByTestId('about-values').locator('h3')).toHaveText(c.values);
      await expect(page.getByTestId('about-page')).toContainText(c.businessesLaunched);
      const img = page.getByTestId('about-page').locator('header img');
      await expect(img).toHaveAttribute('alt', locale === 'en' ? /Dubai and Singapore/ : /دبي وسنغافورة/);
      await expect(img).toHaveAttribute('width', /\d+/);
      // Site links inside the body stay in the page's language.
      await expect(page.getByTestId('about-page').locator(`a[href="${at(locale, '/case-studies')}"]`)).toHaveCount(1);
      await expectNoMarketingKeys(page);
    });

    test('pricing: three plans, SGD prices per month for the locale, labels and Subscribe forms', async ({ page }) => {
      const response = await page.goto(at(locale, '/pricing'));
      expect(response?.status()).toBe(200);
      await expectLanguage(page, locale);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(c.pricingTitle);
      const intl = new Intl.NumberFormat(locale === 'en' ? 'en-GB' : 'ar-AE', {
        style: 'currency',
        currency: 'SGD',
        minimumFractionDigits: 0,
        maximumFractionDigits: 0,
      });
      for (const [i, key] of ['starter', 'business', 'enterprise'].entries()) {
        const plan = page.getByTestId(`plan-${key}`);
        await expect(plan.getByRole('heading', { level: 2 })).toHaveText(c.plans[i]);
        const price = await plan.getByTestId('plan-price').textContent();
        expect(price).toBe(intl.format(PRICES_SGD[i]));
        await expect(plan).toContainText(c.perMonth);
        await expect(plan.getByTestId('plan-reports')).toHaveText(c.reports[i]);
        // Subscribe posts the package to the pricing page's action (which starts the checkout), in the same tab.
        const subscribe = plan.getByRole('button', { name: new RegExp(c.subscribe) });
        await expect(subscribe).toHaveCount(1);
        const form = plan.locator('form[method="post"]');
        await expect(form.locator('input[name="intent"]')).toHaveValue('subscribe');
        await expect(form.locator('input[name="plan"]')).toHaveValue(key);
        await expect(plan.locator('a[target="_blank"]')).toHaveCount(0);
      }
      // Readable prices: English "SGD 1,900"; Arabic puts the amount first in reading order.
      const business = (await page.getByTestId('plan-business').getByTestId('plan-price').textContent())!
        .replace(/[\u200e\u200f]/g, '')
        .replace(/\s/g, ' ');
      expect(business).toBe(locale === 'en' ? 'SGD 1,900' : '1,900 SGD');
      await expect(page.getByTestId('popular-label')).toHaveCount(1);
      await expect(page.getByTestId('plan-business').getByTestId('popular-label')).toHaveText(c.popular);
      await expect(page.getByTestId('plan-starter')).toContainText(c.keyArea);
      await expectNoMarketingKeys(page);
    });

    for (const path of ['/', '/services', '/about', '/pricing']) {
      test(`no accessibility violations on ${path} @phone`, async ({ page }) => {
        await page.goto(at(locale, path));
        const results = await new AxeBuilder({ page })
          .include('#main')
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
          .analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
          [],
        );
      });
    }

    test('services hash on load: the section lands at the offset after the delay @phone', async ({
      page,
    }, testInfo) => {
      const offset = isMobile(testInfo) ? 120 : 160;
      await page.goto(at(locale, '/services#recruitment'));
      await expect.poll(() => topOf(page, '#recruitment'), { timeout: 5000 }).toBe(offset);
    });

    test('services hash on load falls back to a section whose id ends with the name, after 1000 ms @phone', async ({
      page,
    }, testInfo) => {
      const offset = isMobile(testInfo) ? 120 : 160;
      // Timed in the page, so a slow machine cannot make the check late: when the page hydrated
      // (the header, in the same commit as the page's timer, lets go of its menu button's early
      // tap: app/lib/early-taps.ts; the sections and their forms hydrate later, apart), and when
      // the page first scrolled.
      await page.addInitScript(() => {
        const w = window as unknown as { __hydratedAt?: number; __scrolledAt?: number };
        new MutationObserver((_, observer) => {
          const toggle = document.querySelector('[data-testid="menu-toggle"]');
          if (!toggle || toggle.hasAttribute('data-early')) return;
          w.__hydratedAt = performance.now();
          observer.disconnect();
        }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-early'] });
        addEventListener('scroll', () => (w.__scrolledAt ??= performance.now()), { capture: true });
      });
      await page.goto(at(locale, '/services#strategy'));
      // No element is called "strategy": nothing moves before the delay (the timer starts at
      // hydration; 100 ms of margin for when the field and the timer land)...
      const sinceHydration = () =>
        page.evaluate(() => {
          const w = window as unknown as { __hydratedAt?: number; __scrolledAt?: number };
          return w.__scrolledAt === undefined || w.__hydratedAt === undefined ? null : w.__scrolledAt - w.__hydratedAt;
        });
      await expect.poll(sinceHydration, { timeout: 5000 }).not.toBeNull();
      expect(await sinceHydration()).toBeGreaterThanOrEqual(900);
      // ...then #launch-strategy is found and scrolled to.
      await expect.poll(() => topOf(page, '#launch-strategy'), { timeout: 5000 }).toBe(offset);
    });

    test('a service card clicked on /services scrolls in page to its section @phone', async ({ page }, testInfo) => {
      const offset = isMobile(testInfo) ? 120 : 160;
      await page.goto(at(locale, '/services'));
      await hydrated(page);
      await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 7));
      await page.getByTestId('service-card-performance').click();
      await expect(page).toHaveURL(new RegExp(`${at(locale, '/services')}#performance$`));
      await expect.poll(() => topOf(page, '#performance'), { timeout: 5000 }).toBe(offset);
      // In place: no reload.
      expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(7);
      // And another one, back up the page.
      await page.getByTestId('site-header').scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByTestId('service-card-business-setup').click();
      await expect.poll(() => topOf(page, '#business-setup'), { timeout: 5000 }).toBe(offset);
    });

    test('a home service card navigates to /services and lands on its section @phone', async ({ page }, testInfo) => {
      const offset = isMobile(testInfo) ? 120 : 160;
      await page.goto(at(locale, '/'));
      await hydrated(page);
      await page.getByTestId('service-card-operations').click();
      await expect(page).toHaveURL(new RegExp(`${at(locale, '/services')}#operations$`));
      await expect.poll(() => topOf(page, '#operations'), { timeout: 5000 }).toBe(offset);
    });
  });
}
