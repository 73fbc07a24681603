import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { main } from '../src/pages';
import { type RunningServer, startServer } from '../src/server';
import { DEMO_GUILDS, signInContext } from '../src/session';

/**
 * Working a ticket from the dashboard: the demo bot's desk opens tickets in the sandbox's Discord,
 * a member writes, and Ava claims, answers and closes the ticket on the Tickets page; the bot carries
 * each action out in the sandbox's channel, and the transcript lands in Transcripts. Its own server,
 * with the demo bot on and the sandbox's controls (to open a ticket and make the member write now).
 */
let server: RunningServer | undefined;
const harness = useBrowser({ baseURL: () => server!.url });
const ARCADE = DEMO_GUILDS.avasArcade;

interface LiveTicket {
  ticketId: string;
  channelId: string;
  number: number;
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
  // The desk opens after the bot's history is in: wait until it answers.
  const until = Date.now() + 90_000;
  while ((await control('tickets')).status !== 200) {
    if (Date.now() > until) throw new Error("the demo bot's desk did not start within 90 s");
    await new Promise((ok) => setTimeout(ok, 500));
  }
});
afterAll(async () => {
  await server?.stop();
});

describe('working a ticket from the dashboard', () => {
  test('Ava claims a waiting ticket, replies, sees the reply in the sandbox channel and the conversation, closes it, and finds its transcript', async () => {
    const opened = await control<{ ticket: LiveTicket }>('open-ticket', { serverId: ARCADE.id });
    expect(opened.status).toBe(200);
    const ticket = opened.body.ticket;
    const wrote = await control<{ ticket: LiveTicket & { messageId: string } }>('member-writes', { ticketId: ticket.ticketId });
    expect(wrote.status).toBe(200);

    const page = harness.page;
    await signInContext(harness.context, harness.baseURL, 'ava');
    await page.goto(`/dashboard/${ARCADE.id}/tickets`);
    const content = main(page);
    await content.getByRole('button', { name: /^Waiting \(\d+\)$/ }).click();
    const row = content.getByRole('link', { name: new RegExp(`#${ticket.number}\\b`) });
    await row.click();
    await content.getByRole('heading', { name: `Ticket #${ticket.number}` }).waitFor();
    await content.getByText('Waiting for staff').first().waitFor();

    // Claim: the bot claims in Discord and the ticket says who has it.
    await content.getByRole('button', { name: 'Claim', exact: true }).click();
    await content.getByRole('button', { name: 'Unclaim', exact: true }).waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await content.getByText('Ava', { exact: true }).count()) > 0, { timeout: 20_000 }).toBe(true);

    // Reply: the bot posts it in the ticket's channel; it shows in the conversation.
    const words = `Thanks for waiting, we are on it (${Date.now().toString(36)}).`;
    await content.getByRole('textbox', { name: 'Reply' }).fill(words);
    await expect.poll(() => content.getByText(`${words.length} / 2000`).count()).toBe(1);
    // With a file: uploaded at once, sent with the reply, posted by the bot in the channel.
    await content.locator('input[type="file"]').setInputFiles({ name: 'steps-to-reproduce.txt', mimeType: 'text/plain', buffer: Buffer.from('1. Open the shop\n2. Buy the pass\n') });
    await content.getByText('Uploaded').waitFor({ timeout: 20_000 });
    await content.getByRole('button', { name: 'Send reply' }).click();
    await content.getByRole('log').getByText(words).or(content.getByText(words)).first().waitFor({ timeout: 20_000 });
    const channelPage = () => fetch(`${server!.url}/sandbox/discord/channels/${ticket.channelId}`).then((res) => res.text());
    await expect.poll(async () => (await channelPage()).includes(words), { timeout: 30_000, interval: 500 }).toBe(true);
    const channel = await channelPage();
    // In the conversation once: the bot's message replaces the pending reply.
    await expect.poll(() => content.getByText(words).count(), { timeout: 20_000 }).toBe(1);
    await content.getByText('Sending…').waitFor({ state: 'detached', timeout: 20_000 });
    expect(channel).toContain('steps-to-reproduce.txt');
    expect(channel).toContain('Ava');
    await shot(page, 'ticket-replied');

    // Close with a reason: the ticket closes, and its transcript arrives in Transcripts.
    await content.getByRole('button', { name: 'Close ticket' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Reason (optional)' }).fill('Solved from the dashboard');
    await dialog.getByRole('button', { name: 'Close ticket' }).click();
    await content.getByText('This ticket is closed').waitFor({ timeout: 30_000 });
    await content.getByRole('link', { name: 'Open Transcripts' }).click();
    // The list renders after the page's load event: wait for its rows after each reload, then look.
    await expect
      .poll(
        async () => {
          await page.reload();
          await main(page).getByRole('link', { name: /^Ticket #\d+$/ }).first().waitFor({ timeout: 20_000 });
          return main(page).getByRole('link', { name: `Ticket #${ticket.number}` }).count();
        },
        { timeout: 90_000, interval: 2000 },
      )
      .toBe(1);
    // Closed by Ava, by name: the bot's transcript names whoever acted from the dashboard.
    await expect.poll(() => main(page).getByRole('row').filter({ hasText: `Ticket #${ticket.number}` }).getByText('Ava', { exact: true }).count()).toBe(1);
    await shot(page, 'ticket-transcript-listed');
  });
});
