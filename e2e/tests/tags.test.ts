import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shot, useBrowser } from '../src/browser';
import { main } from '../src/pages';
import { type RunningServer, startServer } from '../src/server';
import { DEMO_GUILDS, signInContext } from '../src/session';

/**
 * Tags (canned replies): Ava adds one on the Automation page's Tags tab, picks it with `/` in a
 * ticket's reply box, and the demo bot posts it in the sandbox's channel; a support member's `/tag`
 * posts it too, and Statistics counts both uses. Its own server, with the demo bot and the sandbox's
 * controls (to open a ticket and have a support member type `/tag`).
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
  const until = Date.now() + 90_000;
  while ((await control('tickets')).status !== 200) {
    if (Date.now() > until) throw new Error("the demo bot's desk did not start within 90 s");
    await new Promise((ok) => setTimeout(ok, 500));
  }
});
afterAll(async () => {
  await server?.stop();
});

describe('tags', () => {
  test('a tag added on the Automation page, used from the reply box, appears in the sandbox channel; /tag too; Statistics counts both', async () => {
    const page = harness.page;
    const content = main(page);
    await signInContext(harness.context, harness.baseURL, 'ava');
    const name = `shipping-${Date.now().toString(36)}`;
    const words = `Orders ship within two days (${name}).`;

    // The Tags tab: add the tag, see it in the preview, save.
    await page.goto(`/dashboard/${ARCADE.id}/configs/automation?tab=tags`);
    await content.getByRole('button', { name: 'Add tag' }).click();
    const nameField = content.getByRole('textbox', { name: /^Name/ });
    await nameField.fill(name);
    await content.getByRole('textbox', { name: /^Message/ }).fill(words);
    await content.getByRole('textbox', { name: /^Keywords/ }).fill('delivery, parcel');
    await content.getByRole('complementary', { name: 'Live preview' }).getByText(words).waitFor();
    await shot(page, 'tags-editor');
    await content.getByRole('button', { name: 'Save', exact: true }).click();
    await content.getByText(/Saved: this is version \d+/).waitFor({ timeout: 20_000 });

    // A ticket: "/" in the reply box lists the tags; the keyword finds it, Enter chooses it.
    const opened = await control<{ ticket: LiveTicket }>('open-ticket', { serverId: ARCADE.id });
    expect(opened.status).toBe(200);
    const ticket = opened.body.ticket;
    await page.goto(`/dashboard/${ARCADE.id}/tickets/${ticket.ticketId}`);
    await content.getByRole('heading', { name: `Ticket #${ticket.number}` }).waitFor({ timeout: 20_000 });
    const box = content.getByRole('textbox', { name: 'Reply' });
    await box.click();
    await page.keyboard.type('/parcel');
    const list = content.getByRole('listbox', { name: 'Tags' });
    await list.getByRole('option', { name: new RegExp(name) }).waitFor();
    await shot(page, 'tags-reply-box');
    await page.keyboard.press('Enter');
    await expect.poll(() => content.getByRole('textbox', { name: 'Reply' }).inputValue()).toBe(words);
    await content.getByText(`Tag: ${name}`).waitFor();
    await content.getByRole('button', { name: 'Send reply' }).click();
    const channelPage = () => fetch(`${server!.url}/sandbox/discord/channels/${ticket.channelId}`).then((res) => res.text());
    await expect.poll(async () => (await channelPage()).includes(words), { timeout: 30_000, interval: 500 }).toBe(true);
    await content.getByText('Sending…').waitFor({ state: 'detached', timeout: 20_000 });

    // A support member's /tag in Discord: the bot posts the tag (its second message with the words).
    const used = await control<{ ticket: { tagId: string | null } }>('staff-writes', { ticketId: ticket.ticketId, content: `/tag ${name}` });
    expect(used.status).toBe(200);
    expect(used.body.ticket.tagId).not.toBeNull();
    await expect.poll(async () => (await channelPage()).split(words).length - 1, { timeout: 20_000 }).toBe(2);
    const unknown = await control<{ message: string }>('staff-writes', { ticketId: ticket.ticketId, content: '/tag no-such-tag' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('no tag called "no-such-tag"');

    // Statistics: two uses of the tag in the last 7 days.
    await page.goto(`/dashboard/${ARCADE.id}/statistics`);
    const tags = content.getByRole('table', { name: 'Tags used' });
    await expect.poll(async () => (await tags.getByRole('row', { name: new RegExp(`${name}\\s+2$`) }).count()) > 0, { timeout: 20_000 }).toBe(true);
    await shot(page, 'tags-statistics');
  });
});
