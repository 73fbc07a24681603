import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { main } from '../src/pages';
import { type RunningServer, startServer } from '../src/server';
import { DEMO_GUILDS, signInContext } from '../src/session';

/**
 * Auto-close: Ava sets her server's rules, the Tickets queue shows when a waiting ticket will close,
 * and the demo bot, on a fast demo clock (`_control/demo-bot/clock`: an hour lasts 2 s), posts
 * the warning with its Keep open button, then closes the ticket with a line naming the rule. Its own
 * server, with the demo bot on and the sandbox's controls.
 */
let server: RunningServer | undefined;
const harness = useBrowser({ baseURL: () => server!.url });
const ARCADE = DEMO_GUILDS.avasArcade;

interface LiveTicket {
  ticketId: string;
  channelId: string;
  number: number;
  closed: boolean;
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

describe('auto-close', () => {
  test('the queue shows when a waiting ticket closes; the bot warns with Keep open, then closes it naming the rule', async () => {
    const page = harness.page;
    await signInContext(harness.context, harness.baseURL, 'ava');
    // The server's rules on the Automation page: close 3 hours after the member's unanswered message, warn 2 hours before.
    await page.goto(`/dashboard/${ARCADE.id}/configs/automation?tab=auto-close`);
    const content = main(page);
    await content.getByRole('heading', { level: 2, name: 'Auto-close' }).waitFor({ timeout: 30_000 });
    const serverRules = content.getByRole('region', { name: 'Server rules' });
    await serverRules.getByRole('checkbox', { name: 'Close when staff do not answer' }).check();
    await serverRules.getByRole('spinbutton', { name: 'Hours to wait for staff' }).fill('3');
    await serverRules.getByRole('spinbutton', { name: 'Warn this many hours before' }).fill('2');
    await serverRules.getByRole('textbox', { name: 'Warning text' }).fill('{user}, nobody has answered yet: this ticket closes {time}.');
    const preview = page.getByRole('complementary', { name: 'Live preview' });
    await preview.getByText(/nobody has answered yet: this ticket closes/).waitFor();
    await preview.getByText('Keep open', { exact: true }).last().waitFor();
    await shot(page, 'auto-close-tab');
    await content.getByRole('button', { name: 'Save', exact: true }).click();
    await content.getByText(/^Saved: this is version \d+ of the configuration\.$/).first().waitFor({ timeout: 20_000 });

    const opened = await control<{ ticket: LiveTicket }>('open-ticket', { serverId: ARCADE.id });
    expect(opened.status).toBe(200);
    const ticket = opened.body.ticket;

    // The queue: "Closes in 3 hours", the exact time as its tooltip.
    await page.goto(`/dashboard/${ARCADE.id}/tickets`);
    const row = main(page).getByRole('link', { name: new RegExp(`#${ticket.number}\\b`) });
    const due = row.getByText('Closes in 3 hours');
    await due.waitFor({ timeout: 20_000 });
    expect(await due.locator('..').getAttribute('title')).toMatch(/^Closes automatically at .+ unless staff answer \(auto-close\)$/);
    await shot(page, 'auto-close-queue');

    // A demo hour lasts 2 s now: the close is due, so the warning comes first, and the close its 2 hours later.
    const clock = await control<{ hourMs: number }>('clock', { hourMs: 2000 });
    expect(clock.body).toEqual({ hourMs: 2000 });
    const channelPage = () => fetch(`${server!.url}/sandbox/discord/channels/${ticket.channelId}`).then((res) => res.text());
    await expect.poll(async () => (await channelPage()).includes('nobody has answered yet'), { timeout: 20_000, interval: 200 }).toBe(true);
    expect(await channelPage()).toContain('Keep open');
    await expect
      .poll(async () => (await control<{ tickets: LiveTicket[] }>('tickets')).body.tickets.find((t) => t.ticketId === ticket.ticketId)?.closed, { timeout: 30_000, interval: 250 })
      .toBe(true);
    await control('clock', { hourMs: 3_600_000 });

    // The ticket left the queue; its transcript has the warning and the closing line, and its reason names the rule.
    await page.reload();
    await main(page).getByRole('list', { name: 'Open tickets' }).or(main(page).getByText('No open tickets')).first().waitFor();
    expect(await main(page).getByRole('link', { name: new RegExp(`#${ticket.number}\\b`) }).count()).toBe(0);
    const read = (fileId: string) =>
      page.evaluate(async ([serverId, id]) => {
        const res = await fetch(`/api/transcripts/v2/${serverId}/${id}`, { headers: { 'x-requested-with': 'tickety' } });
        return res.ok ? ((await res.json()) as { ticket: { reason: string | null }; messages: Array<{ content: string }> }) : null;
      }, [ARCADE.id, fileId] as const);
    await expect.poll(async () => (await read(`t-${ticket.ticketId}`)) !== null, { timeout: 30_000, interval: 500 }).toBe(true);
    const stored = (await read(`t-${ticket.ticketId}`))!;
    expect(stored.ticket.reason).toBe('Auto-close (staff_silent): no answer from staff for 3 hours.');
    const lines = stored.messages.map((message) => message.content);
    expect(lines.some((line) => line.includes('nobody has answered yet: this ticket closes <t:'))).toBe(true);
    expect(lines.at(-1)).toBe('🔒 This ticket was closed automatically: no answer from the support team for 3 hours. The conversation is kept as a transcript.');
  });
});
