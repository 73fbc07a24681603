import { describe, expect, it } from 'vitest';
import { popupErrorKind, popupErrorPage, popupPage } from '../../src/lib/pages';
import { runPopup, scriptHash } from '../helpers/oauth';

const base = {
  productName: 'Tickety',
  title: 'Logged in',
  heading: 'Logged in',
  text: 'You are logged in.',
  message: { auth: true },
  targetOrigin: 'https://tickety.test',
  close: true,
  fallbackUrl: 'https://tickety.test/dashboard',
};

describe('popupPage', () => {
  it('posts the message to the exact target origin and closes', () => {
    const page = popupPage(base);
    const run = runPopup(page.html);
    expect(run.posted).toEqual([{ message: { auth: true }, targetOrigin: 'https://tickety.test' }]);
    expect(run.closed).toBe(true);
    expect(page.html).toContain('<title>Tickety - Logged in</title>');
  });

  it('goes to the fallback when there is no opener', () => {
    const run = runPopup(popupPage(base).html, 'absent');
    expect(run.posted).toEqual([]);
    expect(run.replacedWith).toBe('https://tickety.test/dashboard');
  });

  it('allows exactly its own script by hash, nothing else', () => {
    const page = popupPage(base);
    const script = runPopup(page.html).script;
    expect(page.csp).toContain(`script-src ${scriptHash(script)}`);
    expect(page.csp).toContain("default-src 'none'");
    expect(page.csp).toContain("frame-ancestors 'none'");
    expect(page.csp).toContain("form-action 'none'");
    expect(page.html).toContain('<meta name="referrer" content="no-referrer">');
  });

  it('cannot be broken out of: text is escaped, script data cannot close the script', () => {
    const hostile = '</script><script>alert(1)</script><!--';
    const page = popupPage({
      ...base,
      productName: '<b>X</b>',
      heading: hostile,
      text: '"onmouseover=alert(1) \' & <img src=x>',
      message: { auth: false, error: hostile },
      targetOrigin: hostile,
      detail: '<i>1006 - 400</i>',
    });
    expect(page.html.match(/<script>/g)).toHaveLength(1);
    expect(page.html).not.toContain('<img');
    expect(page.html).not.toContain('<b>X</b>');
    expect(page.html).toContain('&lt;i&gt;1006 - 400&lt;/i&gt;');
    const run = runPopup(page.html);
    expect(run.posted).toEqual([{ message: { auth: false, error: hostile }, targetOrigin: hostile }]);
  });
});

describe('popupErrorPage', () => {
  it('shows "<code> - <status>" and posts {auth:false, error, code}', () => {
    const page = popupErrorPage({ productName: 'Tickety', targetOrigin: 'https://tickety.test', code: 1006, httpStatus: 400, message: 'Expired.' });
    expect(page.html).toContain('<small>1006 - 400</small>');
    const run = runPopup(page.html);
    expect(run.posted).toEqual([{ message: { auth: false, error: 'invalid_state', code: 1006 }, targetOrigin: 'https://tickety.test' }]);
    expect(run.closed).toBe(false);
  });

  it('names each failure', () => {
    expect([1003, 1006, 1007, 1008, 1009, 1500].map(popupErrorKind)).toEqual([
      'rate_limited',
      'invalid_state',
      'oauth_failed',
      'discord_unavailable',
      'unavailable',
      'oauth_failed',
    ]);
  });
});
