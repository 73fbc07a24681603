import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { legacyTranscriptPath } from '../../packages/sandbox/src/discord/attachments';
import { DEMO_BOT_API_KEY } from '../../packages/sandbox/src/demo-bot';
import { v2VectorCount, xssTranscript, vectors as xssVectors } from '../../packages/sandbox/src/discord/xss-vectors';
import { ARTIFACTS_DIR, shot, titleOf, useBrowser } from '../src/browser';
import { main } from '../src/pages';
import { type RunningServer, startServer } from '../src/server';
import { DEMO_GUILDS, DEMO_USERS, signInContext, signInWithHint } from '../src/session';

/**
 * Tickets flow in: the demo bot, a client of the bot API over HTTP, fills the demo with a
 * ticket history, shard heartbeats and transcripts; people find them on the status page, in "Your
 * tickets", in a server's transcripts and in Web Logs. Its own server, with the demo bot on.
 */
let server: RunningServer | undefined;
const harness = useBrowser({ baseURL: () => server!.url });

beforeAll(async () => {
  server = await startServer({ env: { DEMO_BOT: 'on' } });
  // The bot starts once the server listens: wait for its heartbeats (its history follows in seconds).
  const until = Date.now() + 60_000;
  for (;;) {
    const status = (await (await fetch(`${server.url}/api/status`)).json()) as { shards: unknown[] };
    if (status.shards.length >= 4) break;
    if (Date.now() > until) throw new Error('the demo bot did not report its shards within a minute');
    await new Promise((ok) => setTimeout(ok, 500));
  }
});
afterAll(async () => {
  await server?.stop();
});

const ARCADE = DEMO_GUILDS.avasArcade;
const PIXEL = DEMO_GUILDS.pixelPals;

describe('tickets flow in from the bot', () => {
  test('/status lists the four shards the bot heartbeats, one of them resuming', async () => {
    await harness.page.goto('/status');
    const table = harness.page.getByRole('table', { name: 'Bot shards' });
    await table.waitFor();
    const rows = table.getByRole('row');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(5);
    for (const id of ['#0', '#1', '#2', '#3']) expect(await table.getByText(id, { exact: true }).count(), id).toBe(1);
    expect(await table.getByText('resuming').count()).toBe(1);
    await shot(harness.page, 'status-shards');
  });

  test('Ava reads Statistics of the demo history, switches to 30 days and exports the staff table', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto(`/dashboard/${ARCADE.id}/statistics`);
    expect(await titleOf(harness.page, 'Tickety - Statistics')).toBe('Tickety - Statistics');
    const opened = main(harness.page).getByText('Opened', { exact: true }).first();
    await opened.waitFor();
    await harness.page.getByRole('table', { name: 'By staff member' }).waitFor();
    expect(await harness.page.getByRole('table', { name: 'By panel' }).getByRole('row').count()).toBeGreaterThan(1);
    await harness.page.locator('canvas').first().waitFor();
    await shot(harness.page, 'statistics-ava');
    await harness.page.getByRole('button', { name: '30 days' }).click();
    await harness.page.waitForURL(/range=30d/);
    await harness.page.getByText(/Tickets per day \(30 days\)/).waitFor();
    const download = harness.page.waitForEvent('download');
    await harness.page.getByRole('region', { name: 'By staff member' }).getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^statistics-staff-1100000000000000001-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  });

  test('Cleo finds her tickets in Pixel Pals under Your tickets', async () => {
    await signInContext(harness.context, harness.baseURL, 'cleo');
    await harness.page.goto('/dashboard');
    await main(harness.page).getByRole('link', { name: 'Your tickets' }).click();
    expect(await titleOf(harness.page, 'Tickety - Your tickets')).toBe('Tickety - Your tickets');
    const table = harness.page.getByRole('table', { name: /tickets you opened/ });
    await expect.poll(async () => {
      await table.waitFor({ timeout: 10_000 }).catch(() => harness.page.reload());
      return table.getByRole('row').count();
    }, { timeout: 30_000 }).toBeGreaterThan(1);
    expect(await table.getByText(PIXEL.name).count()).toBeGreaterThan(0);
    expect(await table.getByText(ARCADE.name).count()).toBe(0);
    const link = table.getByRole('link', { name: /^Ticket #\d+$/ }).first();
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^/transcript/v2/${PIXEL.id}/t-`));
    await shot(harness.page, 'your-tickets-cleo');
  });

  test('Cleo reads her own transcript and searches it, but not someone else’s', async () => {
    await signInContext(harness.context, harness.baseURL, 'cleo');
    await harness.page.goto('/transcripts');
    const link = harness.page.getByRole('table', { name: /tickets you opened/ }).getByRole('link', { name: /^Ticket #\d+$/ }).first();
    await link.click();
    await harness.page.getByRole('heading', { level: 1, name: /^Ticket #\d+ · #ticket-/ }).waitFor();
    const conversation = harness.page.getByRole('region', { name: 'The conversation' });
    await conversation.getByText('The ticket was opened.').first().waitFor();
    await harness.page.getByRole('searchbox', { name: 'Search this transcript' }).fill('in-game name');
    await expect.poll(() => harness.page.getByRole('status').filter({ hasText: / of / }).textContent()).toMatch(/^1 of \d+$/);
    await shot(harness.page, 'transcript-v2-cleo');

    // A transcript of Ava's Arcade, where Cleo is not a member: the no-access screen (docs/behaviour.md).
    const ava = await signInWithHint(server!.url, 'ava');
    const list = (await (await fetch(`${server!.url}/api/guilds/${ARCADE.id}/transcripts`, { headers: { cookie: ava.header() } })).json()) as { items: Array<{ fileId: string }> };
    expect(list.items.length).toBeGreaterThan(0);
    await harness.page.goto(`/transcript/v2/${ARCADE.id}/${list.items[0]!.fileId}`);
    await harness.page.getByText('You don’t have access to this server.').or(harness.page.getByText("You don't have access to this server.")).first().waitFor();
    expect(await harness.page.getByRole('region', { name: 'The conversation' }).count()).toBe(0);
    await shot(harness.page, 'transcript-v2-cleo-refused');
  });

  test('Ava reads her server’s transcripts and the ticket events in Web Logs', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto(`/dashboard/${ARCADE.id}/logs-web`);
    await main(harness.page).getByRole('link', { name: 'Transcripts' }).click();
    const table = harness.page.getByRole('table', { name: /Transcripts of/ });
    await table.waitFor();
    expect(await table.getByRole('link', { name: /^Ticket #\d+$/ }).count()).toBeGreaterThan(3);
    await shot(harness.page, 'server-transcripts-ava');

    // Only five-star tickets: every row shows five stars.
    await harness.page.getByLabel('Rating').selectOption('5');
    await harness.page.getByRole('button', { name: 'Apply filters' }).click();
    await harness.page.waitForURL(/rating=5/);
    await expect.poll(() => table.getByText('4 of 5 stars').count()).toBe(0);

    await harness.page.goto(`/dashboard/${ARCADE.id}/logs-web?action=ticket.opened`);
    const log = harness.page.getByRole('list', { name: 'Changes made on the dashboard, newest first' });
    await log.waitFor();
    expect(await log.getByText('Opened a ticket').count()).toBeGreaterThan(3);
    expect(await log.getByText(/^Ticket #\d+$/).count()).toBeGreaterThan(3);
  });

  test('Ava opens a transcript from the list, searches it, jumps between matches and downloads it', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    // A ticket long enough to hold the demo's screenshot (sent with "I pushed the item to your inventory"),
    // not whichever short live ticket the demo bot closed last.
    await harness.page.goto(`/dashboard/${ARCADE.id}/logs-web/transcripts?q=${encodeURIComponent('pushed the item to your inventory')}`);
    const table = harness.page.getByRole('table', { name: /Transcripts of/ });
    await table.getByRole('link', { name: /^Ticket #\d+$/ }).first().click();
    await harness.page.getByRole('heading', { level: 1, name: /^Ticket #\d+ · #ticket-/ }).waitFor();
    // The bot's welcome embed as Discord shows it: the opener as its author (linked), the title linked
    // to the ticket's channel, the form's answers as fields, the three short ones side by side.
    const welcome = harness.page.locator('article').filter({ has: harness.page.locator('dt', { hasText: 'Platform' }) }).first();
    await welcome.waitFor();
    expect(await welcome.locator('dt').allTextContents()).toEqual([expect.any(String), 'In-game name', 'Platform', 'Region']);
    expect(await welcome.locator('a[href^="https://discord.com/users/"]').count()).toBe(1);
    expect(await welcome.locator('a[href^="https://discord.com/channels/"]').count()).toBe(1);
    const tops = await welcome.locator('dt').evaluateAll((dts) => dts.map((dt) => Math.round(dt.getBoundingClientRect().top)));
    expect(tops[1]).toBeGreaterThan(tops[0]!);
    expect(new Set(tops.slice(1)).size).toBe(1);
    await welcome.screenshot({ path: join(ARTIFACTS_DIR, 'transcript-v2-welcome-embed.png') });
    const search = harness.page.getByRole('searchbox', { name: 'Search this transcript' });
    await search.fill('ticket');
    const count = harness.page.getByRole('status').filter({ hasText: / of / });
    await expect.poll(() => count.textContent()).toMatch(/^1 of \d+$/);
    const total = Number((await count.textContent())!.split(' of ')[1]);
    await search.press('Enter');
    await search.press('Enter');
    expect(await count.textContent()).toBe(`${Math.min(2, total) === 2 ? 2 : 1} of ${total}`);
    // The current match is on screen, its words painted by the search highlight.
    const current = harness.page.locator('article.ring-2');
    await current.waitFor();
    expect(await current.isVisible()).toBe(true);
    expect(await harness.page.evaluate(() => (CSS as unknown as { highlights: Map<string, { size: number }> }).highlights.get('tk-transcript-match')?.size ?? 0)).toBeGreaterThan(0);
    await shot(harness.page, 'transcript-v2-search-ava');

    const download = harness.page.waitForEvent('download');
    await harness.page.getByRole('button', { name: 'Download HTML' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^transcript-${ARCADE.id}-t-[\\w-]+\\.html$`));
    const saved = join(ARTIFACTS_DIR, 'transcript-ava.html');
    await file.saveAs(saved);
    const page = await harness.context.newPage();
    await page.goto(pathToFileURL(saved).href);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/^Ticket #\d+ · #ticket-/);
    expect(await page.locator('article[id^="m-"]').count()).toBeGreaterThan(3);
    // The welcome embed's form answers travel in the file too.
    expect(await page.locator('dt', { hasText: 'Platform' }).count()).toBe(1);
    // The screenshot attached in the ticket travels inside the file, and shows (the file's policy allows data: pictures only).
    const picture = page.locator('img[src^="data:image/png;base64,"]').first();
    await picture.scrollIntoViewIfNeeded();
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(480);
    await shot(page, 'transcript-v2-file-ava');
    await page.close();
  });

  test('a legacy (v1) transcript whose link expired opens, refreshed through the bot, and nothing in it runs', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    const dialogs: string[] = [];
    harness.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const path = legacyTranscriptPath(0);
    await harness.page.goto(path);
    expect(await titleOf(harness.page, 'Tickety - Transcript')).toBe('Tickety - Transcript');
    await harness.page.getByText('Discord link expired').waitFor();
    const frame = harness.page.frameLocator('iframe[title^="Legacy transcript"]');
    await frame.getByText('season pass').waitFor();
    expect(await harness.page.locator('iframe[title^="Legacy transcript"]').getAttribute('sandbox')).toBe('');
    // The hostile parts are gone or inert: no script ran anywhere, the page stayed where it was.
    expect(await frame.locator('script, iframe, form, svg, object, embed').count()).toBe(0);
    expect(await frame.locator('[onerror], [onload], [onclick], [onmouseover]').count()).toBe(0);
    expect(await frame.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await harness.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(new URL(harness.page.url()).pathname).toBe(path);
    await shot(harness.page, 'transcript-v1');
  });

  test(`the XSS corpus (${xssVectors().length} vectors) in a legacy transcript: nothing runs, nothing hostile is left`, async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    const dialogs: string[] = [];
    harness.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const path = legacyTranscriptPath(2);
    await harness.page.goto(path);
    const frame = harness.page.frameLocator('iframe[title^="Legacy transcript"]');
    await frame.getByText(`vector ${xssVectors().length}`, { exact: true }).waitFor();
    // The document's own <meta charset> and fixed <style> are in its head; nothing of the transcript may add any.
    expect(await frame.locator('script, iframe, svg, math, object, embed, link, base').count()).toBe(0);
    expect(await frame.locator('head > style, head > meta').count()).toBe(2);
    expect(await frame.locator('body').locator('form, style, meta, input, textarea, select, details, video, audio, marquee').count()).toBe(0);
    expect(await frame.locator('[onerror], [onload], [onclick], [onmouseover], [onfocus], [ontoggle], [onbegin], [style]').count()).toBe(0);
    expect(await frame.locator('a[href^="javascript" i], a[href^="data" i], img[src^="javascript" i]').count()).toBe(0);
    await harness.page.waitForTimeout(500);
    expect(await harness.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(new URL(harness.page.url()).pathname).toBe(path);
  });

  test(`the XSS corpus in a v2 transcript (${xssVectors().length} vectors × ${v2VectorCount() / xssVectors().length} places) and in its HTML file: nothing runs`, async () => {
    // Uploaded as a bot would: the demo bot's key, gzipped.
    const corpus = xssTranscript({ server: { id: ARCADE.id, name: ARCADE.name }, openerId: DEMO_USERS.cleo.id, panelId: null });
    const put = await fetch(`${server!.url}/api/bot/v1/servers/${ARCADE.id}/transcripts/xss-corpus`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${DEMO_BOT_API_KEY}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify(corpus)),
    });
    expect(put.status, await put.clone().text()).toBe(200);

    await signInContext(harness.context, harness.baseURL, 'ava');
    const dialogs = watchDialogs(harness.page);
    const path = `/transcript/v2/${ARCADE.id}/xss-corpus`;
    await harness.page.goto(path);
    await harness.page.getByRole('heading', { level: 1, name: 'Ticket #9999 · #xss-corpus' }).waitFor();
    const conversation = harness.page.getByRole('region', { name: 'The conversation' });
    await conversation.getByText('vector 1', { exact: false }).first().waitFor();
    // The embeds' fields are shown, the inline ones too (a name and a value of vector 1's).
    expect(await conversation.getByText('vector 1 inline', { exact: true }).count()).toBe(2);
    // The list is virtualised: scroll it through, so every message is rendered once.
    const seen = new Set<string>();
    // Each message carries its vector in ~20 places (an embed with four fields among them): some
    // 900 px each, 400-odd steps of scrolling.
    for (let guard = 0; guard < 2000; guard++) {
      for (const id of await conversation.locator('article[id^="m-"]').evaluateAll((els) => els.map((e) => e.id))) seen.add(id);
      await expectNothingLive(conversation);
      const end = await conversation.evaluate((el) => {
        el.scrollTop += el.clientHeight * 0.8;
        return el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
      });
      await harness.page.waitForTimeout(30);
      if (end && guard > 0) {
        for (const id of await conversation.locator('article[id^="m-"]').evaluateAll((els) => els.map((e) => e.id))) seen.add(id);
        break;
      }
    }
    expect(seen.size).toBe(xssVectors().length);
    await harness.page.waitForTimeout(300);
    expect(await harness.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(new URL(harness.page.url()).pathname).toBe(path);

    // The standalone HTML file of the same transcript, opened from disk.
    const download = harness.page.waitForEvent('download');
    await harness.page.getByRole('button', { name: 'Download HTML' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`transcript-${ARCADE.id}-xss-corpus.html`);
    const saved = join(ARTIFACTS_DIR, file.suggestedFilename());
    await file.saveAs(saved);
    const html = await readFile(saved, 'utf8');
    expect(html).toContain(`http-equiv="Content-Security-Policy" content="default-src 'none';`);
    const page = await harness.context.newPage();
    const fileDialogs = watchDialogs(page);
    await page.goto(pathToFileURL(saved).href);
    expect(await page.locator('article[id^="m-"]').count()).toBe(xssVectors().length);
    expect(await page.getByText(`vector ${xssVectors().length} inline`, { exact: true }).count()).toBe(2);
    await expectNothingLive(page.locator('body'));
    expect(await page.locator('script, button').count()).toBe(0);
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(fileDialogs).toEqual([]);
    await shot(page, 'transcript-v2-xss-file');
    await page.close();
  }, 180_000);
});

function watchDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return dialogs;
}

/**
 * Nothing of a transcript became markup that could run or restyle: the vectors' tags, handlers, and
 * links or pictures of any scheme but http(s) (a jump to a message, a file's copy). One round trip
 * per call: the v2 test calls it at every step of its scroll through the corpus.
 */
async function expectNothingLive(scope: ReturnType<Page['locator']>) {
  const problems = await scope.evaluate((root) => {
    const found: string[] = [];
    const tags = 'script, iframe, object, embed, style, link, meta, base, form, input, textarea, select, details, video, audio, marquee, xss, math, template';
    for (const el of root.querySelectorAll(tags)) found.push(`<${el.tagName.toLowerCase()}>`);
    const handlers = ['onerror', 'onload', 'onclick', 'onmouseover', 'onfocus', 'onfocusin', 'onanimationstart', 'onanimationend', 'ontoggle', 'onbegin', 'onstart'];
    for (const el of root.querySelectorAll(handlers.map((h) => `[${h}]`).join(', '))) found.push(`a handler on <${el.tagName.toLowerCase()}>`);
    for (const el of root.querySelectorAll('[style*="url(" i]')) found.push(`url() in the style of <${el.tagName.toLowerCase()}>`);
    // Every link is an http(s) address, a jump to a message or a file's copy: no other scheme, however
    // written (an embed's title and author links, masked links in fields), became a link.
    for (const a of root.querySelectorAll('a[href]')) {
      const href = a.getAttribute('href') ?? '';
      if (!/^(https?:\/\/\S+|#m-\d+|\/api\/transcripts\/v2\/\S+)$/i.test(href)) found.push(`a link to ${JSON.stringify(href)}`);
    }
    for (const img of root.querySelectorAll('img[src]')) {
      const src = img.getAttribute('src') ?? '';
      if (!/^(https?:\/\/|\/|data:image\/)/i.test(src)) found.push(`a picture from ${JSON.stringify(src)}`);
    }
    return found;
  });
  expect(problems).toEqual([]);
}
