import { defaultServerConfig, newPanel, ServerConfigAnswer, WebLogPage } from '@tickety/api-contract';
import { DEMO_GUILDS, DEMO_USERS } from '@tickety/sandbox';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, useTestApp } from '../../helpers/app';
import { Browser } from '../../helpers/browser';
import { databases } from '../../helpers/db';
import { signIn } from '../../helpers/oauth';

const { ava } = DEMO_USERS;

function panel(id: string, name: string) {
  const item = newPanel(id, { name, title: name, description: 'Press the button to open a ticket.', button: 'Open a ticket' });
  return { ...item, embed: { ...item.embed, colour: 0x10b981 }, namingScheme: 'ticket-{count}' };
}

function withPanels(...panels: ReturnType<typeof panel>[]) {
  return { ...defaultServerConfig(), panels };
}

/** A save as the dashboard sends it. */
function put(browser: Browser, path: string, body: unknown) {
  return browser.request('PUT', path, { headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety', origin: DASHBOARD_ORIGIN }, payload: body as object });
}

describe.each(databases())('Web Logs on $name', (database) => {
  const t = useTestApp(database);

  async function as(userId: string) {
    const browser = new Browser(t.app);
    await signIn(browser, userId);
    return browser;
  }

  it('lists Web Logs newest first past ten entries, and everyone who appears in them', async () => {
    const browser = await as(ava.id);
    const pixel = `/api/guilds/${DEMO_GUILDS.pixelPals.id}`;
    let version = ServerConfigAnswer.parse((await browser.get(`${pixel}/config`)).json()).version;
    for (let i = 0; i < 11; i++) {
      const res = await put(browser, `${pixel}/config`, { expectedVersion: version, config: withPanels(panel('one', `Name ${i}`)) });
      expect(res.statusCode, res.body).toBe(200);
      version += 1;
    }
    const page = WebLogPage.parse((await browser.get(`${pixel}/logs?limit=12`)).json());
    const versions = page.entries.map((entry) => entry.version);
    expect(versions).toEqual([...versions].sort((a, b) => (b ?? 0) - (a ?? 0)));
    expect(versions[0]).toBe(version);
    const ids = page.entries.map((entry) => BigInt(entry.id));
    expect(ids).toEqual([...ids].sort((a, b) => (b > a ? 1 : b < a ? -1 : 0)));
    const actors = (await browser.get(`${pixel}/logs/actors`)).json();
    expect(actors).toEqual({ actors: [{ id: ava.id, name: 'Ava', avatarUrl: expect.any(String) }] });
  });
});
