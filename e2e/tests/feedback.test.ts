import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FEEDBACK_BOT_TEXT } from '../../packages/api-contract/src/server-config/automation';
import { shot, useBrowser } from '../src/browser';
import { main } from '../src/pages';
import { type RunningServer, startServer } from '../src/server';
import { DEMO_GUILDS, signInContext } from '../src/session';

/**
 * Feedback after close: Ava turns feedback on in Automation's Feedback tab, closes a ticket the
 * demo bot's desk opened, the bot asks its opener (kept by the desk: the sandbox has no direct
 * messages; read and answered through the sandbox's controls), the opener rates it with a comment,
 * and Statistics lists the comment with its stars and a link to the ticket's transcript.
 */
let server: RunningServer | undefined;
const harness = useBrowser({ baseURL: () => server!.url });
const ARCADE = DEMO_GUILDS.avasArcade;

interface LiveTicket {
  ticketId: string;
  number: number;
}

interface Question {
  serverId: string;
  ticketId: string;
  question: string;
  message: { embeds: Array<{ title: string }>; components: Array<{ components: Array<{ label: string }> }> };
  answer: { rating: number; comment: string | null } | null;
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
  // The server's start (up to 90 s) and the desk's (up to 90 s) on a busy machine.
}, 240_000);
afterAll(async () => {
  await server?.stop();
});

describe('feedback after close', () => {
  test('Ava turns feedback on, closes a ticket, its opener rates it with a comment, and the comment shows in Statistics', async () => {
    const page = harness.page;
    const content = main(page);
    await signInContext(harness.context, harness.baseURL, 'ava');

    // Automation › Feedback: on for the server (the panels follow it), the bot's own question.
    await page.goto(`/dashboard/${ARCADE.id}/configs/automation?tab=feedback`);
    const enabled = content.getByRole('checkbox', { name: 'Ask for feedback when a ticket closes' });
    await enabled.waitFor({ timeout: 20_000 });
    const preview = content.getByRole('complementary', { name: 'Live preview' });
    await preview.getByText(FEEDBACK_BOT_TEXT.en.question).waitFor();
    if (!(await enabled.isChecked())) await enabled.check();
    await content.getByRole('button', { name: 'Save' }).click();
    await content.getByText(/^Saved: this is version \d+ of the configuration\.$/).waitFor({ timeout: 20_000 });
    await shot(page, 'feedback-settings');

    // A ticket opens; Ava closes it from the Tickets page.
    const opened = await control<{ ticket: LiveTicket }>('open-ticket', { serverId: ARCADE.id });
    expect(opened.status).toBe(200);
    const ticket = opened.body.ticket;
    await page.goto(`/dashboard/${ARCADE.id}/tickets`);
    await content.getByRole('button', { name: /^Waiting \(\d+\)$/ }).click();
    await content.getByRole('link', { name: new RegExp(`#${ticket.number}\\b`) }).click();
    await content.getByRole('heading', { name: `Ticket #${ticket.number}` }).waitFor({ timeout: 20_000 });
    await content.getByRole('button', { name: 'Close ticket' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Close ticket' }).click();
    await content.getByText('This ticket is closed').waitFor({ timeout: 30_000 });

    // The bot asked the opener: the question with its five star buttons.
    let asked: Question | undefined;
    await expect
      .poll(
        async () => {
          asked = (await control<{ questions: Question[] }>('feedback')).body.questions.find((q) => q.ticketId === ticket.ticketId);
          return asked !== undefined;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(true);
    expect(asked!.question).toBe(FEEDBACK_BOT_TEXT.en.question);
    expect(asked!.message.embeds[0]!.title).toBe(FEEDBACK_BOT_TEXT.en.question);
    expect(asked!.message.components[0]!.components.map((button) => button.label)).toEqual(['1 ★', '2 ★', '3 ★', '4 ★', '5 ★']);
    expect(asked!.answer).toBeNull();

    // The opener presses 4 stars and writes a comment.
    const words = `Quick and friendly help (${Date.now().toString(36)}).`;
    const rated = await control<{ question: Question }>('rate', { serverId: ARCADE.id, ticketId: ticket.ticketId, rating: 4, comment: words });
    expect(rated.status).toBe(200);
    expect(rated.body.question.answer).toMatchObject({ rating: 4, comment: words });
    // A second answer is refused: Discord's buttons go after the first press.
    expect((await control('rate', { serverId: ARCADE.id, ticketId: ticket.ticketId, rating: 1 })).status).toBe(400);

    // Statistics: the comment with its stars, the ticket and its transcript.
    await page.goto(`/dashboard/${ARCADE.id}/statistics`);
    const comments = content.locator('section').filter({ has: page.getByRole('heading', { name: 'Comments' }) });
    await comments.getByText(words).waitFor({ timeout: 30_000 });
    const item = comments.getByRole('listitem').filter({ hasText: words });
    await expect.poll(() => item.getByText('4 of 5 stars').count()).toBe(1);
    await expect.poll(() => item.getByText(`Ticket #${ticket.number}`).count()).toBe(1);
    await expect.poll(() => item.getByText(/handled by|From /).count()).toBeGreaterThan(0);
    const transcript = item.getByRole('link', { name: `Transcript of #${ticket.number}` });
    await transcript.waitFor({ timeout: 20_000 });
    expect(await transcript.getAttribute('href')).toMatch(new RegExp(`^/transcript/v2/${ARCADE.id}/`));
    await item.scrollIntoViewIfNeeded();
    await shot(page, 'feedback-statistics');
  });
});
