import { describe, expect, test } from 'vitest';
import { shot, titleOf, useBrowser } from '../src/browser';
import { loginRequired, main } from '../src/pages';
import { signInContext, userMenu } from '../src/session';

const harness = useBrowser();

const staffRequests = () => harness.requests.filter((u) => u.includes('/remotes/staff/'));

describe('the staff remote', () => {
  test('is never requested for a visitor, even on the staff paths', async () => {
    await harness.page.goto('/');
    await main(harness.page).waitFor();
    for (const path of ['/dashboard', '/system', '/team-manager', '/support-team']) {
      await harness.page.goto(path);
      await loginRequired(harness.page).waitFor();
    }
    expect(staffRequests()).toEqual([]);
  });

  test('is never requested for Cleo, even when she opens /system', async () => {
    await signInContext(harness.context, harness.baseURL, 'cleo');
    await harness.page.goto('/');
    await userMenu(harness.page, 'cleo').waitFor();
    for (const path of ['/system', '/team-manager', '/support-team']) {
      await harness.page.goto(path);
      await main(harness.page).getByText(/permission|access|not allowed|staff/i).first().waitFor();
    }
    await shot(harness.page, 'system-as-cleo');
    expect(staffRequests()).toEqual([]);
  });

  test('is loaded for Sam on /team-manager', async () => {
    await signInContext(harness.context, harness.baseURL, 'sam');
    const manifest = harness.page.waitForResponse((r) => r.url().includes('/remotes/staff/') && r.ok());
    await harness.page.goto('/team-manager');
    await manifest;
    expect(await titleOf(harness.page, 'Tickety - Team Manager')).toBe('Tickety - Team Manager');
    await main(harness.page).getByRole('heading').first().waitFor();
    expect(await loginRequired(harness.page).count()).toBe(0);
    expect(staffRequests().some((u) => u.endsWith('.js'))).toBe(true);
    await shot(harness.page, 'team-manager-sam');
  });
});
