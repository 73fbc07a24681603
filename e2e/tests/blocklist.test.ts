import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { main } from '../src/pages';
import { type RunningServer, startServer } from '../src/server';
import { DEMO_GUILDS, DEMO_USERS, signInContext } from '../src/session';

/**
 * The blocklist, end to end: Ava blocks Cleo (by id) and the Member role in Ava's Arcade on the
 * Automation page's Blocklist tab; the demo bot reads the configuration and refuses their tickets with its ephemeral reply,
 * while a member who is not listed gets a ticket. Its own server, with the demo bot on and the
 * sandbox's controls (to press a panel's button as a given member).
 */
let server: RunningServer | undefined;
const harness = useBrowser({ baseURL: () => server!.url });
const ARCADE = DEMO_GUILDS.avasArcade;

interface Refused {
  ticket: null;
  refused: { userId: string; roleName: string | null; language: string; message: string; entry: { kind: string; reason: string; addedBy: string } };
}

async function control<T>(action: string, body: Record<string, unknown> = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server!.url}/sandbox/discord/_control/demo-bot/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

beforeAll(async () => {
  server = await startServer({ env: { DEMO_BOT: 'on', SANDBOX_CONTROL: '1' } });
  const until = Date.now() + 90_000;
  while ((await control('tickets')).status !== 200) {
    if (Date.now() > until) throw new Error("the demo bot's desk did not start within 90 s");
    await new Promise((ok) => setTimeout(ok, 500));
  }
  // The server's start (up to 90 s) and the desk's (up to 90 s more) on a busy machine.
}, 200_000);
afterAll(async () => {
  await server?.stop();
});

describe('the blocklist, end to end', () => {
  test('Ava blocks a member and a role; their tickets are refused with the reason, an unblocked member’s opens', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    const page = harness.page;
    await page.goto(`/dashboard/${ARCADE.id}/configs/automation?tab=blocklist`);
    const content = main(page);
    await content.getByRole('heading', { level: 2, name: 'Blocklist' }).waitFor({ timeout: 20_000 });
    // Two days from now, to the minute, as the browser's datetime-local input takes it (its own zone).
    const end = await page.evaluate(() => {
      const at = new Date(Date.now() + 2 * 86_400_000);
      at.setSeconds(0, 0);
      const pad = (value: number) => String(value).padStart(2, '0');
      return { value: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`, iso: at.toISOString() };
    });

    // Cleo by her user id, until the end; the Member role until removed.
    await content.getByRole('textbox', { name: "Member's user ID" }).fill(DEMO_USERS.cleo.id);
    await content.getByRole('textbox', { name: /^Reason/ }).fill('Spam in tickets');
    await content.getByLabel('Blocked until (optional)').fill(end.value);
    await content.getByRole('button', { name: 'Add to the blocklist' }).click();
    await content.getByRole('radio', { name: 'A role' }).check();
    await content.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: '@Member', exact: true }).click();
    await content.getByRole('textbox', { name: /^Reason/ }).fill('Raid cleanup');
    await content.getByRole('button', { name: 'Add to the blocklist' }).click();
    const list = content.getByRole('list', { name: 'Blocked members and roles' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    await content.getByRole('button', { name: 'Save', exact: true }).click();
    await content.getByText(/^Saved: this is version \d+ of the configuration\.$/).waitFor({ timeout: 20_000 });
    await list.getByText(/Added by Ava on/).first().waitFor();
    await shot(page, 'automation-blocklist');

    const cleo = await control<Refused>('open-ticket', { serverId: ARCADE.id, userId: DEMO_USERS.cleo.id });
    expect(cleo.status).toBe(200);
    expect(cleo.body.ticket).toBeNull();
    expect(cleo.body.refused).toMatchObject({ userId: DEMO_USERS.cleo.id, language: 'en', entry: { kind: 'user', reason: 'Spam in tickets', addedBy: DEMO_USERS.ava.id } });
    const seconds = Math.floor(Date.parse(end.iso) / 1000);
    expect(cleo.body.refused.message).toBe(`🚫 You can't open tickets on this server.\n**Reason:** Spam in tickets\nThis block ends <t:${seconds}:f> (<t:${seconds}:R>).`);

    // The tickets Cleo and Ben have (the desk's own turns open tickets for random members too). Read
    // after a control's answer: the desk does one thing at a time, so a turn that began before the save
    // has ended by then.
    const theirs = async () => (await control<{ tickets: Array<{ openerId: string }> }>('tickets')).body.tickets.filter((t) => t.openerId === DEMO_USERS.cleo.id || t.openerId === DEMO_USERS.ben.id).length;
    const before = await theirs();

    // Ben has the Member role in Ava's Arcade.
    const ben = await control<Refused>('open-ticket', { serverId: ARCADE.id, userId: DEMO_USERS.ben.id });
    expect(ben.body.ticket).toBeNull();
    expect(ben.body.refused.message).toBe("🚫 Members with the role **Member** can't open tickets on this server.\n**Reason:** Raid cleanup\nThis block stays until a moderator lifts it.");
    expect(await theirs()).toBe(before);
    const refusals = (await control<{ refusals: Array<{ userId: string }> }>('refusals')).body.refusals.map((r) => r.userId);
    expect(refusals).toEqual(expect.arrayContaining([DEMO_USERS.cleo.id, DEMO_USERS.ben.id]));

    // Ava (an Admin, without the Member role) is not listed: her ticket opens.
    const ava = await control<{ ticket: { openerId: string } }>('open-ticket', { serverId: ARCADE.id, userId: DEMO_USERS.ava.id });
    expect(ava.status).toBe(200);
    expect(ava.body.ticket.openerId).toBe(DEMO_USERS.ava.id);
  });
});
