// Screenshots of pages for looking at them (not a test): node e2e/tools/screenshots.mjs <base url> <ava|ben|cleo|sam|-> <light|dark> <path...>
// Writes /tmp/shots/<user>-<scheme>-<path>.png; W/H set the viewport (default 1280x800), FULL=1 a full-page shot,
// LOCALE=de-DE the browser's language.
import { chromium } from 'playwright-core';

const [base, user, scheme, ...paths] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const ctx = await browser.newContext({ baseURL: base, viewport: { width: Number(process.env.W ?? 1280), height: Number(process.env.H ?? 800) }, colorScheme: scheme, ...(process.env.LOCALE ? { locale: process.env.LOCALE } : {}) });
if (user !== '-') {
  const page = await ctx.newPage();
  await page.goto(`${base}/api/auth/login`);
  await page.getByRole('button', { name: new RegExp(`Sign in as ${user}`, 'i') }).click();
  await page.waitForLoadState('networkidle');
  await page.close();
}
const page = await ctx.newPage();
page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
page.on('pageerror', (e) => console.log('pageerror:', e.message));
for (const p of paths) {
  await page.goto(p);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(400);
  const file = `/tmp/shots/${(user === '-' ? 'anon' : user)}-${scheme}-${p.replace(/[^a-z0-9]+/gi, '_')}.png`;
  await page.screenshot({ path: file, fullPage: process.env.FULL === '1' });
  console.log(file, await page.title());
}
await browser.close();
