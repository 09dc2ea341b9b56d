import { chromium } from '@playwright/test';
const [,, base, spec, ...ys] = process.argv;
const [p, w] = spec.split('@');
const width = Number(w);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width, height: width < 768 ? 812 : 900 } });
await page.goto(base + p, { waitUntil: 'networkidle' });
for (const y of ys) {
  await page.evaluate((y) => window.scrollTo(0, Number(y)), y);
  await page.waitForTimeout(400);
  const name = `/tmp/shots/v${p.replace(/\//g, '_')}-${width}-${y}.png`;
  await page.screenshot({ path: name });
  console.log(name);
}
await browser.close();
