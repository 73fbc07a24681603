import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useBrowser } from '../src/browser';
import { type RunningServer, startServer } from '../src/server';
import { DEMO_ROLES } from '../../packages/sandbox/src/discord/demo-data';
import { DEMO_GUILDS, DEMO_USERS, signInContext } from '../src/session';

/**
 * The blocklist, end to end: Ava blocks Cleo (by id) and the Member role in Ava's Arcade from the
 * dashboard; the demo bot reads the configuration and refuses their tickets with its ephemeral reply,
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
});
afterAll(async () => {
  await server?.stop();
});

describe('the blocklist, end to end', () => {
  test('a blocked member’s ticket is refused with the reason (by id and by role); an unblocked member’s opens', async () => {
    await signInContext(harness.context, harness.baseURL, 'ava');
    await harness.page.goto(`/dashboard/${ARCADE.id}`);
    const memberRole = DEMO_ROLES.avasArcade.member;
    const until = new Date(Date.now() + 2 * 86_400_000).toISOString();
    // Ava saves the blocklist as the dashboard does (the whole configuration, against its version),
    // claiming someone else added the entries: the API stamps them with her and now.
    const saved = await harness.page.evaluate(
      async ({ id, cleo, role, until: end }) => {
        const live = (await (await fetch(`/api/guilds/${id}/config`)).json()) as { version: number; config: Record<string, unknown> };
        const forged = { addedBy: '1000000000000099999', addedAt: '2001-01-01T00:00:00.000Z' };
        const blocklist = [
          { kind: 'user', id: cleo, reason: 'Spam in tickets', expiresAt: end, ...forged },
          { kind: 'role', id: role, reason: 'Raid cleanup', expiresAt: null, ...forged },
        ];
        const res = await fetch(`/api/guilds/${id}/config`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', 'x-requested-with': 'tickety' },
          body: JSON.stringify({ expectedVersion: live.version, config: { ...live.config, blocklist } }),
        });
        return { status: res.status, body: (await res.json()) as { config: { blocklist: Array<{ addedBy: string }> } } };
      },
      { id: ARCADE.id, cleo: DEMO_USERS.cleo.id, role: memberRole, until },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.config.blocklist.map((entry) => entry.addedBy)).toEqual([DEMO_USERS.ava.id, DEMO_USERS.ava.id]);

    const before = (await control<{ tickets: unknown[] }>('tickets')).body.tickets.length;
    const cleo = await control<Refused>('open-ticket', { serverId: ARCADE.id, userId: DEMO_USERS.cleo.id });
    expect(cleo.status).toBe(200);
    expect(cleo.body.ticket).toBeNull();
    expect(cleo.body.refused).toMatchObject({ userId: DEMO_USERS.cleo.id, language: 'en', entry: { kind: 'user', reason: 'Spam in tickets', addedBy: DEMO_USERS.ava.id } });
    const seconds = Math.floor(Date.parse(until) / 1000);
    expect(cleo.body.refused.message).toBe(`🚫 You can't open tickets on this server.\n**Reason:** Spam in tickets\nThis block ends <t:${seconds}:f> (<t:${seconds}:R>).`);

    // Ben has the Member role in Ava's Arcade.
    const ben = await control<Refused>('open-ticket', { serverId: ARCADE.id, userId: DEMO_USERS.ben.id });
    expect(ben.body.ticket).toBeNull();
    expect(ben.body.refused.message).toBe("🚫 Members with the role **Member** can't open tickets on this server.\n**Reason:** Raid cleanup\nThis block stays until a moderator lifts it.");
    expect((await control<{ tickets: unknown[] }>('tickets')).body.tickets).toHaveLength(before);
    expect((await control<{ refusals: Array<{ userId: string }> }>('refusals')).body.refusals.map((r) => r.userId)).toEqual([DEMO_USERS.cleo.id, DEMO_USERS.ben.id]);

    // Ava (an Admin, without the Member role) is not listed: her ticket opens.
    const ava = await control<{ ticket: { openerId: string } }>('open-ticket', { serverId: ARCADE.id, userId: DEMO_USERS.ava.id });
    expect(ava.status).toBe(200);
    expect(ava.body.ticket.openerId).toBe(DEMO_USERS.ava.id);
  });
});
