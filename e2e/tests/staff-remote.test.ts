import { describe, expect, test } from 'vitest';
import { shot, titleOf, useBrowser } from '../src/browser';
import { loginRequired, main } from '../src/pages';
import { signInContext, userMenu } from '../src/session';

const b = useBrowser();

const staffRequests = () => b.requests.filter((u) => u.includes('/remotes/staff/'));

describe('the staff remote', () => {
  test('is never requested for a visitor, even on the staff paths', async () => {
    await b.page.goto('/');
    await main(b.page).waitFor();
    for (const path of ['/dashboard', '/system', '/team-manager', '/support-team']) {
      await b.page.goto(path);
      await loginRequired(b.page).waitFor();
    }
    expect(staffRequests()).toEqual([]);
  });

  test('is never requested for Cleo, even when she opens /system', async () => {
    await signInContext(b.context, b.baseURL, 'cleo');
    await b.page.goto('/');
    await userMenu(b.page, 'cleo').waitFor();
    for (const path of ['/system', '/team-manager', '/support-team']) {
      await b.page.goto(path);
      await main(b.page).getByText(/permission|access|not allowed|staff/i).first().waitFor();
    }
    await shot(b.page, 'system-as-cleo');
    expect(staffRequests()).toEqual([]);
  });

  test('is loaded for Sam on /team-manager', async () => {
    await signInContext(b.context, b.baseURL, 'sam');
    const manifest = b.page.waitForResponse((r) => r.url().includes('/remotes/staff/') && r.ok());
    await b.page.goto('/team-manager');
    await manifest;
    expect(await titleOf(b.page, 'Tickety - Team Manager')).toBe('Tickety - Team Manager');
    await main(b.page).getByRole('heading').first().waitFor();
    expect(await loginRequired(b.page).count()).toBe(0);
    expect(staffRequests().some((u) => u.endsWith('.js'))).toBe(true);
    await shot(b.page, 'team-manager-sam');
  });
});
