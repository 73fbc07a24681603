import { AuthenticatedMe } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { FetchLike } from '../../src/lib/discord';
import { SIGN_IN_BOT_WAIT_MS } from '../../src/services/guild-sync';
import { type TestApp, useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { SECOND } from '../helpers/clock';
import { databases } from '../helpers/db';
import { signIn } from '../helpers/oauth';

const { ava } = DEMO_USERS;
/** More than 50 pages of 200: the demo servers (Ava's Arcade, Pixel Pals, ... with the bot) land on page 51. */
const MANY = 10_050;
/** Past the API's one-minute cache of the bot's list (and into a new window of the sandbox's rate limit). */
const PAST_CACHE = 61 * SECOND;

/** Bot flags of Ava's servers as /api/auth/@me shows them. */
async function botFlags(browser: Browser): Promise<Record<string, boolean>> {
  const me = AuthenticatedMe.parse((await browser.get('/api/auth/@me')).json());
  return Object.fromEntries(me.guilds.map((g) => [g.id, g.botInGuild]));
}

/** Requests the sandbox answered for the bot's guild list. */
const botPages = (t: TestApp) => t.sandbox.requests('GET /api/v10/users/@me/guilds').filter((r) => r.auth === 'bot');

/**
 * Lets a test act just before the API sends the n-th page request of the bot's list (e.g. arm a
 * sandbox fault for exactly that page): the user's own guild request, sent at the same time as the
 * first page, is long answered by then.
 */
let beforeBotPage: ((page: number) => void) | null = null;
let botPageCount = 0;
const watchBotPages = (inner: FetchLike): FetchLike => (input, init) => {
  if (new Headers(init?.headers).get('authorization')?.startsWith('Bot ') && input.includes('/users/@me/guilds')) {
    beforeBotPage?.(++botPageCount);
  }
  return inner(input, init);
};

describe.each(databases())("the bot's guild list on $name", (database) => {
  describe('read in full (default deadline)', () => {
    const t = useTestApp(database, { wrapFetch: watchBotPages });

    beforeEach(() => {
      t.sandbox.reset();
      beforeBotPage = null;
      botPageCount = 0;
      t.clock.advance(PAST_CACHE);
    });

    it('a bot in 10,050+ servers: sign-in reads all 51 pages, so a server on page 51 shows the bot', async () => {
      t.sandbox.addBotGuilds(MANY);
      const browser = new Browser(t.app);
      await signIn(browser, ava.id);
      expect(botPages(t)).toHaveLength(51);
      expect(botPages(t).every((r) => r.status === 200)).toBe(true);
      expect(await botFlags(browser)).toMatchObject({
        [DEMO_GUILDS.avasArcade.id]: true,
        [DEMO_GUILDS.pixelPals.id]: true,
        [DEMO_GUILDS.modGuild.id]: true,
        [DEMO_GUILDS.studyHall.id]: false,
      });
    });

    it('a page failing (the 3rd) keeps every stored bot flag, never a partial list', async () => {
      t.sandbox.addBotGuilds(MANY);
      const browser = new Browser(t.app);
      await signIn(browser, ava.id);
      const stored = await botFlags(browser);
      expect(stored[DEMO_GUILDS.avasArcade.id]).toBe(true);

      // The bot joins Study Hall, then its list fails on page 3 at the next sign-in.
      t.sandbox.setBotInGuild(DEMO_GUILDS.studyHall.id, true);
      t.clock.advance(PAST_CACHE);
      t.sandbox.clearRequests();
      beforeBotPage = (page) => {
        if (page === 3) t.sandbox.failNext('GET /api/v10/users/@me/guilds', { status: 502 });
      };
      botPageCount = 0;
      await signIn(browser, ava.id);
      expect(botPages(t).map((r) => r.status)).toEqual([200, 200, 502]);
      // Pages 1-2 hold only synthetic servers: a partial list would have said "bot not added" for all of Ava's.
      expect(await botFlags(browser)).toEqual(stored);
      expect(t.logs.messages(/bot guild list unavailable/).length).toBeGreaterThan(0);

      // The next complete read updates them.
      beforeBotPage = null;
      t.clock.advance(PAST_CACHE);
      await signIn(browser, ava.id);
      expect(await botFlags(browser)).toEqual({ ...stored, [DEMO_GUILDS.studyHall.id]: true });
    });

    it("a 429 on a page is waited out (Discord's Retry-After) and the list still completes", async () => {
      t.sandbox.addBotGuilds(MANY);
      beforeBotPage = (page) => {
        if (page === 3) t.sandbox.failNext('GET /api/v10/users/@me/guilds', { status: 429, retryAfter: 1 });
      };
      const browser = new Browser(t.app);
      const started = Date.now();
      await signIn(browser, ava.id);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      const statuses = botPages(t).map((r) => r.status);
      expect(statuses.slice(0, 4)).toEqual([200, 200, 429, 200]);
      expect(statuses).toHaveLength(52);
      expect((await botFlags(browser))[DEMO_GUILDS.avasArcade.id]).toBe(true);
    });

    it('a slow list does not hold sign-in past the bound; it goes on in the background and fills the cache', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ava.id);
      const stored = await botFlags(browser);

      // Big and slow (51 pages at 100 ms: over 5 s), within the 20 s deadline.
      t.sandbox.addBotGuilds(MANY);
      t.sandbox.setBotInGuild(DEMO_GUILDS.studyHall.id, true);
      t.sandbox.setLatency(100, 'GET /api/v10/users/@me/guilds');
      t.clock.advance(PAST_CACHE);
      t.sandbox.clearRequests();
      const started = Date.now();
      await signIn(browser, ava.id);
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(SIGN_IN_BOT_WAIT_MS - 50);
      expect(took).toBeLessThan(SIGN_IN_BOT_WAIT_MS + 1500);
      expect(botPages(t).length).toBeLessThan(51);
      // Signed in on the stored flags (Study Hall not yet).
      expect(await botFlags(browser)).toEqual(stored);
      expect(t.logs.messages(/bot guild list not ready in time/).length).toBeGreaterThan(0);

      // The read goes on and completes; the next sign-in (within the cache minute) uses it without asking again.
      await vi.waitFor(() => expect(botPages(t)).toHaveLength(51), { timeout: 15_000, interval: 100 });
      t.sandbox.setLatency(0, 'GET /api/v10/users/@me/guilds');
      await signIn(browser, ava.id);
      expect(botPages(t)).toHaveLength(51);
      expect(await botFlags(browser)).toEqual({ ...stored, [DEMO_GUILDS.studyHall.id]: true });
    }, 20_000);
  });

  describe('bounded in time', () => {
    const t = useTestApp(database, { env: { BOT_GUILDS_DEADLINE_MS: '1500' } });

    beforeEach(() => {
      t.sandbox.reset();
      t.clock.advance(PAST_CACHE);
    });

    it('a list not read within BOT_GUILDS_DEADLINE_MS is given up: the stored flags stay', async () => {
      const browser = new Browser(t.app);
      await signIn(browser, ava.id);
      const stored = await botFlags(browser);
      expect(stored[DEMO_GUILDS.avasArcade.id]).toBe(true);

      t.sandbox.addBotGuilds(MANY);
      t.sandbox.setLatency(100, 'GET /api/v10/users/@me/guilds'); // 51 pages: over 5 s
      t.clock.advance(PAST_CACHE);
      t.sandbox.clearRequests();
      const started = Date.now();
      await signIn(browser, ava.id);
      expect(Date.now() - started).toBeLessThan(SIGN_IN_BOT_WAIT_MS);
      expect(await botFlags(browser)).toEqual(stored);
      const pages = botPages(t).length;
      expect(pages).toBeGreaterThan(1);
      expect(pages).toBeLessThan(51);
      expect(t.logs.messages(/bot guild list unavailable/).at(-1)?.err).toMatch(/deadline of 1500 ms/);
    });
  });
});
