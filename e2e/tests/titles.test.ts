import { describe, expect, test } from 'vitest';
import { shot, titleOf, useBrowser } from '../src/browser';
import { main } from '../src/pages';

const harness = useBrowser();

/** Every public route (docs/behaviour.md#screens-and-providers, public + display layouts) and the title the shell's route table gives it. */
const PUBLIC_ROUTES: Array<[path: string, title: string]> = [
  ['/', 'Tickety - The #1 Discord support bot'],
  ['/login', 'Tickety - Login'],
  ['/support', 'Tickety - Support'],
  ['/invite', 'Tickety - Invite'],
  ['/terms-of-service', 'Tickety - Terms of Service'],
  ['/privacy-policy', 'Tickety - Privacy Policy'],
  ['/legal', 'Tickety - Legal'],
  ['/refund-policy', 'Tickety - Refund Policy'],
  ['/aup-policy', 'Tickety - Acceptable Use Policy'],
  ['/premium', 'Tickety - Premium'],
  ['/status', 'Tickety - Status'],
  ['/home-display', 'Tickety - Home Display'],
  ['/premium-display', 'Tickety - Premium Display'],
  ['/clipboard', 'Tickety - Clipboard'],
];

describe('document titles', () => {
  test.each(PUBLIC_ROUTES)('%s is titled "%s"', async (path, title) => {
    const res = await harness.page.goto(path);
    expect(res?.status()).toBe(200);
    expect(await titleOf(harness.page, title)).toBe(title);
    if (path === '/') await shot(harness.page, 'home-visitor');
  });
});

describe('404', () => {
  test('an unknown path shows the 404 page with a way home', async () => {
    await harness.page.goto('/no-such-page/at-all');
    expect(await titleOf(harness.page, 'Tickety - Not Found')).toBe('Tickety - Not Found');
    await main(harness.page).getByText(/404|not found/i).first().waitFor();
    const home = main(harness.page).getByRole('link', { name: /home/i }).first();
    await home.waitFor();
    expect(await home.getAttribute('href')).toBe('/');
    await shot(harness.page, '404');
  });
});
