// Layout regressions found while measuring the pages: the floating buttons over content on first
// load, duplicate landmark names, the Latin comma in the Arabic footer, two newsletter boxes in a
// row on the Arabic blog, and indicator values off-screen on phones. Each runs on both projects
// (desktop 1280 px, phone 375 px) and in both languages unless it says otherwise.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { at, hydrated, isMobile, LOCALES } from './helpers';

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Fails when a floating button's box meets the box of any element of `targets` (on screen now). */
async function expectClearOfFloatingButtons(page: Page, targets: Locator) {
  const buttons = [page.getByTestId('floating-booking'), page.getByTestId('floating-chat')];
  for (const button of buttons) await expect(button).toBeInViewport();
  const count = await targets.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const target = await targets.nth(i).boundingBox();
    expect(target).not.toBeNull();
    for (const button of buttons) {
      const box = (await button.boundingBox())!;
      expect(overlaps(box, target!), `${await button.getAttribute('data-testid')} over ${i + 1} of ${count}`).toBe(
        false,
      );
    }
  }
}

for (const locale of LOCALES) {
  test.describe(`layout (${locale})`, () => {
    test('home: on first load the floating buttons leave the hero (calls to action, claims, card) clear', async ({
      page,
    }, testInfo) => {
      await page.goto(at(locale, '/'));
      await hydrated(page);
      const hero = page.locator('section[aria-labelledby="hero-title"]');
      const targets = isMobile(testInfo)
        ? hero.locator('[data-testid="hero-services"], ul li, a, button')
        : hero.locator(':scope > div').nth(1); // the hero card column (image and "why the UAE")
      // Only what is on screen: the buttons are fixed, the rest of the page scrolls under them later.
      const visible = targets.filter({ visible: true });
      await expectClearOfFloatingButtons(page, visible);
    });

    test('pricing: on first load the floating buttons leave the plan cards clear', async ({ page }, testInfo) => {
      test.skip(isMobile(testInfo), 'phones show the first card under the intro, far from the buttons');
      await page.goto(at(locale, '/pricing'));
      await hydrated(page);
      await expectClearOfFloatingButtons(
        page,
        page.locator('[data-testid="plan-starter"], [data-testid="plan-business"], [data-testid="plan-enterprise"]'),
      );
    });

    for (const path of ['/', '/blog']) {
      test(`${path}: no two landmarks share a role and a name (axe landmark-unique)`, async ({ page }) => {
        await page.goto(at(locale, path));
        await hydrated(page);
        const results = await new AxeBuilder({ page }).withRules(['landmark-unique']).analyze();
        expect(results.violations.flatMap((v) => v.nodes.map((n) => n.html))).toEqual([]);
      });
    }

    test("the footer joins city and country with the language's own comma", async ({ page }) => {
      await page.goto(at(locale, '/'));
      const line = page.getByTestId('office-dubai').locator('p').first();
      if (locale === 'ar') {
        await expect(line).toContainText('،');
        await expect(line).not.toContainText(',');
      } else {
        await expect(line).toContainText(', ');
      }
    });

    test('the blog shows the newsletter form once on narrow screens, beside the articles on wide ones', async ({
      page,
    }, testInfo) => {
      await page.goto(at(locale, '/blog'));
      const visibleForms = page.locator('[data-testid^="newsletter-"]:is(section)').filter({ visible: true });
      await expect(visibleForms).toHaveCount(isMobile(testInfo) ? 1 : 2);
      // Its e-mail placeholder is not cut off in the field.
      for (const input of await visibleForms.getByRole('textbox').all()) {
        const fits = await input.evaluate((el: HTMLInputElement) => {
          const probe = document.createElement('span');
          const style = getComputedStyle(el);
          probe.style.font = style.font;
          probe.style.position = 'absolute';
          probe.style.visibility = 'hidden';
          probe.textContent = el.placeholder;
          document.body.append(probe);
          const width = probe.getBoundingClientRect().width;
          probe.remove();
          return width <= el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) + 0.5;
        });
        expect(fits).toBe(true);
      }
    });

    test('the scripts start while the page is read, before it has loaded, and the page hydrates cleanly', async ({
      page,
    }) => {
      // Remix's own <Scripts> (ADR 0022): the module preloads are in the HTML, so the browser
      // fetches the page's modules while it reads it; nothing waits for the load event, a paint
      // or a timer (ADR 0018's patched script did, and the first tap found a dead page).
      const errors: string[] = [];
      page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
      page.on('pageerror', (error) => errors.push(error.message));
      const preloads = (await (await page.request.get(at(locale, '/'))).text()).match(/rel="modulepreload"/g) ?? [];
      expect(preloads.length).toBeGreaterThan(10);
      await page.goto(at(locale, '/'));
      await hydrated(page);
      const timing = await page.evaluate(() => {
        const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const scripts = performance
          .getEntriesByType('resource')
          .filter((entry) => /^\/build\/.+\.js$/.test(new URL(entry.name).pathname));
        return {
          parsed: navigation.domInteractive,
          loaded: navigation.loadEventStart,
          starts: scripts.map((s) => s.startTime),
        };
      });
      expect(timing.starts.length).toBeGreaterThan(10);
      // The first module is requested before the document has even been parsed, and all of the
      // first load's modules before the load event (the shell's widgets come later, ADR 0012).
      expect(Math.min(...timing.starts)).toBeLessThan(timing.parsed);
      expect(timing.starts.filter((start) => start < timing.loaded).length).toBeGreaterThanOrEqual(preloads.length);
      // Hydrated: the language menu opens; a hydration mismatch would have logged an error.
      await page.getByTestId('language-switcher').click();
      await expect(page.getByRole('menu')).toBeVisible();
      expect(errors).toEqual([]);
    });

    test("text is set in the site's own cut fonts, and only those files are downloaded", async ({ page }) => {
      const fonts: string[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'font') fonts.push(new URL(response.url()).pathname);
      });
      await page.goto(at(locale, '/faq'));
      await page.evaluate(() => document.fonts.ready);
      const preloaded = await page
        .locator('link[rel="preload"][as="font"]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href')!));
      // The page's own fonts are preloaded (Arabic pages also set Latin text and digits in Inter),
      // and the stylesheet's requests reuse those downloads: each file is fetched once.
      expect(preloaded).toHaveLength(locale === 'ar' ? 2 : 1);
      expect(preloaded[0]).toMatch(
        locale === 'ar' ? /noto-kufi-arabic-subset-\w+\.woff2$/ : /inter-latin-subset-\w+\.woff2$/,
      );
      if (locale === 'ar') expect(preloaded[1]).toMatch(/inter-latin-subset-\w+\.woff2$/);
      for (const font of preloaded) expect(fonts.filter((f) => f === font)).toHaveLength(1);
      // English and Arabic text (and the Latin inside Arabic pages) come from the two subsets;
      // the font packages' full files (48 KB of Latin, 124 KB of Arabic) are never fetched.
      for (const font of fonts) expect(font).toMatch(/\/(inter-latin|noto-kufi-arabic)-subset-\w+\.woff2$/);
      const loaded = await page.evaluate(() =>
        [...document.fonts].filter((face) => face.status === 'loaded').map((face) => face.family.replace(/"/g, '')),
      );
      expect(loaded).toContain('Inter Latin');
      if (locale === 'ar') expect(loaded).toContain('Noto Kufi Arabic Variable');
    });

    test('every indicator value is on screen without sideways scrolling', async ({ page }) => {
      await page.goto(at(locale, '/'));
      const values = page.getByTestId('indicator-value');
      await expect(values).toHaveCount(4);
      const viewport = page.viewportSize()!;
      for (const value of await values.all()) {
        await value.scrollIntoViewIfNeeded();
        const box = (await value.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    });
  });
}

// Keyboard focus moving backwards scrolls each control to the top of the window: under the sticky
// header (96 px on phones, 160 px on desktop) unless the page's scroll padding keeps it below.
for (const locale of LOCALES) {
  test(`Shift+Tab never leaves the focused control under the sticky header (${locale})`, async ({ page }) => {
    await page.goto(at(locale, '/faq'));
    await hydrated(page);
    const headerBottom = (await page.getByTestId('site-header').boundingBox())!.height;
    // Start from the page's end, as someone who tabbed through it and now goes back up.
    await page.evaluate(() => {
      const focusable = [...document.querySelectorAll<HTMLElement>('footer a[href]')];
      focusable.at(-1)!.focus();
    });
    let checked = 0;
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Shift+Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        // The header's own links and the fixed floating buttons are never under the header.
        const fixed = el.closest('[data-testid="site-header"], [data-testid="floating-buttons"]');
        const box = el.getBoundingClientRect();
        return { fixed: Boolean(fixed), top: box.top, label: el.textContent?.trim().slice(0, 40) ?? el.tagName };
      });
      if (!focused || focused.fixed) continue;
      checked++;
      expect(focused.top, `"${focused.label}" at ${focused.top}px`).toBeGreaterThanOrEqual(headerBottom - 1);
    }
    expect(checked).toBeGreaterThan(10);
  });
}

// WCAG 1.4.10: at 320 px (a small phone, or 1280 px zoomed to 400%) nothing scrolls sideways.
for (const locale of LOCALES) {
  test(`the services page fits a 320 px window (${locale})`, async ({ page }, testInfo) => {
    test.skip(!isMobile(testInfo), 'one narrow window');
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(at(locale, '/services'));
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.window);
    // Every card of the jump list lies inside the window, its title too.
    const cards = page.locator('[data-testid^="service-card-"]');
    for (let i = 0; i < (await cards.count()); i++) {
      const box = (await cards.nth(i).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(320);
      const overflow = await cards.nth(i).evaluate((el) => el.scrollWidth > el.clientWidth);
      expect(overflow).toBe(false);
    }
  });
}

// An office's unit number after Arabic words keeps its order: "الوحدة 22-02", not "02-22".
test('the Arabic footer shows the Singapore unit number in its own order', async ({ page }) => {
  await page.goto(at('ar', '/'));
  const order = await page.evaluate(() => {
    const walker = document.createTreeWalker(document.querySelector('footer')!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf('22-02');
      if (at < 0) continue;
      const left = (i: number) => {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        return range.getBoundingClientRect().left;
      };
      // The first "2" of 22 and the "0" of 02, as painted.
      return { twentyTwo: left(at), zeroTwo: left(at + 3) };
    }
    return null;
  });
  expect(order, 'the footer shows the unit 22-02').not.toBeNull();
  expect(order!.twentyTwo).toBeLessThan(order!.zeroTwo);
});

// WCAG 1.4.11 and 1.4.3: a field's border stands out from the white it sits on (3:1), and its
// placeholder is readable (4.5:1) yet lighter than a typed value, so an example never reads as one.
test('form fields: a visible border and a placeholder lighter than a typed value', async ({ page }) => {
  await page.goto(at('ar', '/faq'));
  const fields = page.locator('form input[type="email"], form input[type="tel"], form textarea');
  expect(await fields.count()).toBeGreaterThanOrEqual(3);
  for (let i = 0; i < (await fields.count()); i++) {
    const colors = await fields.nth(i).evaluate((el) => {
      const rgb = (value: string) =>
        value
          .match(/[\d.]+/g)!
          .slice(0, 3)
          .map(Number);
      const luminance = (value: string) => {
        const [r, g, b] = rgb(value).map((v) => {
          const c = v / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const contrast = (a: string, b: string) => {
        const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
        return (hi! + 0.05) / (lo! + 0.05);
      };
      const style = getComputedStyle(el);
      const background = style.backgroundColor;
      return {
        border: contrast(style.borderTopColor, background),
        placeholder: contrast(getComputedStyle(el, '::placeholder').color, background),
        value: contrast(style.color, background),
      };
    });
    expect(colors.border).toBeGreaterThanOrEqual(3);
    expect(colors.placeholder).toBeGreaterThanOrEqual(4.5);
    expect(colors.placeholder).toBeLessThan(colors.value - 3);
  }
});
