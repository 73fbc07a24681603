import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TranscriptV2 } from '@tickety/api-contract';
import { json, mockApi, renderPage, resetShared } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordNames, DiscordNamesContext } from '../../components/discord/markdown-view';
import { DiscordSurface, embedLink, fieldSpans } from '../../components/discord/message-preview';
import { ARCADE, avaMe } from '../../test/fixtures';
import TranscriptV2Page from './v2';
import { Message } from '../../components/discord/message';
import { isOwnFile } from '../../components/discord/message-model';
import { buildIndex, MessageIndex, search } from './v2/model';
import { FILE_CSP, standaloneHtml } from './v2/standalone';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));

const OPENER = '1000000000000000003';
const STAFF = '1000000000000000001';
const HOSTILE = '<img src=x onerror="top.__xss=1"><script>top.__xss=2</script>';

function fixture(): TranscriptV2 {
  const msg = (number: number, authorId: string, content: string, over: Partial<TranscriptV2['messages'][number]> = {}) => ({
    id: String(1600000000000000000n + BigInt(number)),
    authorId,
    content,
    createdAt: `2026-03-01T10:0${number}:00.000Z`,
    editedAt: null,
    system: null,
    replyTo: null,
    embeds: [],
    attachments: [],
    reactions: [],
    stickers: [],
    ...over,
  });
  return {
    version: 2,
    server: { id: ARCADE.id, name: "Ava's Arcade", iconUrl: null },
    channel: { id: '1200000000000009001', name: 'ticket-0007' },
    ticket: { id: 't7', number: 7, panelId: 'support', openerId: OPENER, openedAt: '2026-03-01T10:00:00.000Z', closedAt: '2026-03-01T11:00:00.000Z', closedBy: STAFF, reason: 'Solved' },
    users: [
      { id: OPENER, username: 'cleo', displayName: `Cleo ${HOSTILE}`, avatarUrl: null, bot: false, staff: false, colour: null },
      { id: STAFF, username: 'ava', displayName: 'Ava', avatarUrl: null, bot: false, staff: true, colour: 0x10b981 },
    ],
    roles: [{ id: '1400000000000001002', name: 'Support Team', colour: null }],
    channels: [],
    messages: [
      msg(0, STAFF, '', { system: 'ticket_opened' }),
      msg(1, OPENER, `My **season pass** is gone ${HOSTILE} [click](javascript:top.__xss=3)`),
      msg(2, STAFF, `Hi <@${OPENER}>, <@&1400000000000001002> is on it.`, {
        replyTo: String(1600000000000000001n),
        reactions: [{ emoji: { name: '👍' }, count: 2 }],
        embeds: [{ title: `Order ${HOSTILE}`, description: 'Refund *issued*', url: 'javascript:top.__xss=4', colour: 0x10b981, author: null, fields: [{ name: 'Order', value: 'AA-1', inline: false }], footer: null, imageUrl: null, thumbnailUrl: null, timestamp: null }],
        attachments: [{ id: '1900000000000000001', filename: `log${HOSTILE}.txt`, contentType: 'text/plain', size: 2048, url: 'javascript:top.__xss=5', width: null, height: null }],
      }),
      msg(3, OPENER, 'Thanks, the season pass is back!'),
    ],
  };
}

const PATH = `/transcript/v2/${ARCADE.id}/t7`;
const show = () => renderPage(<TranscriptV2Page />, { url: PATH, path: '/transcript/v2/:server/:fileid', me: avaMe() });

/** The API's answers: the head (`?part=head`, with totalMessages) or the whole transcript. */
function served(transcript: TranscriptV2) {
  return (url: URL) => json(url.searchParams.get('part') === 'head' ? { ...transcript, totalMessages: transcript.messages.length } : transcript);
}

describe('the v2 model', () => {
  it('loads only the API’s copies as its own files, by their whole address', () => {
    expect(isOwnFile(`/api/transcripts/v2/${ARCADE.id}/file-7/attachments/1400000000000000001`)).toBe(true);
    for (const url of [
      `/api/transcripts/v2/${ARCADE.id}/file-7`,
      `/api/transcripts/v2/${ARCADE.id}/file-7/attachments/1400000000000000001/../../other`,
      `/api/transcripts/v2/../../auth/logout`,
      `/api/transcripts/v2/${ARCADE.id}/file-7/attachments/1400000000000000001?x=1`,
      'https://cdn.discordapp.com/attachments/1/2/a.png',
    ]) {
      expect(isOwnFile(url), url).toBe(false);
    }
  });

  it('finds messages by id before and after its map is built', () => {
    const messages = ['1', '2', '3'].map((id) => ({ id }) as TranscriptV2['messages'][number]);
    const index = new MessageIndex(messages);
    expect([index.indexOf('2'), index.get('3')?.id, index.get('9')]).toEqual([1, '3', undefined]);
    index.build();
    expect([index.indexOf('2'), index.get('3')?.id, index.get('9')]).toEqual([1, '3', undefined]);
  });
});

describe('transcript v2', () => {
  it('renders messages like Discord, with names for mentions, and hostile text as text only', () => {
    const transcript = fixture();
    const users = new Map(transcript.users.map((u) => [u.id, u]));
    const byId = new Map(transcript.messages.map((m) => [m.id, m]));
    const names: DiscordNames = {
      loaded: true,
      roles: new Map(transcript.roles.map((r) => [r.id, { name: r.name, color: 0 }])),
      channels: new Map(),
      users: new Map(transcript.users.map((u) => [u.id, u.displayName ?? u.username])),
      emojiUrl: () => '',
    };
    const { container } = render(
      <DiscordNamesContext.Provider value={names}>
        <DiscordSurface theme="dark">
          {transcript.messages.map((m, i) => (
            <Message key={m.id} message={m} grouped={i === 3} users={users} byId={byId} current={false} hit={false} onJump={() => undefined} />
          ))}
        </DiscordSurface>
      </DiscordNamesContext.Provider>,
    );
    const page = within(container);
    expect(page.getByText('The ticket was opened.')).toBeInTheDocument();
    expect(page.getByText('season pass')).toBeInTheDocument();
    expect(page.getByText(`@Cleo ${HOSTILE}`)).toBeInTheDocument();
    expect(page.getByText('@Support Team')).toBeInTheDocument();
    expect(page.getByText('STAFF')).toBeInTheDocument();
    expect(page.getByText('👍 2')).toBeInTheDocument();
    expect(page.getByText(`log${HOSTILE}.txt`)).toBeInTheDocument();
    // The reply quotes what it answers.
    expect(page.getByRole('button', { name: /My \*\*season pass/ })).toBeInTheDocument();
    // Nothing of the hostile strings became an element or a live link.
    expect(container.querySelector('script, img, [onerror]')).toBeNull();
    for (const a of container.querySelectorAll('a')) expect(a.getAttribute('href') ?? '').not.toMatch(/^javascript:/i);
    expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
  });

  it('shows embed pictures and avatars from http(s) links only, and none in the file', () => {
    const transcript = fixture();
    const shown = { ...transcript.messages[2]!, replyTo: null, attachments: [], embeds: [{ ...transcript.messages[2]!.embeds[0]!, imageUrl: 'https://cdn.discordapp.com/attachments/1/2/chart.png', thumbnailUrl: 'javascript:top.__xss=9' }] };
    const users = new Map(transcript.users.map((u) => [u.id, { ...u, avatarUrl: u.id === STAFF ? 'https://cdn.discordapp.com/avatars/1/a.png' : 'javascript:top.__xss=8' }]));
    const one = (file?: { images: Map<string, string>; origin: string }) =>
      render(
        <DiscordSurface theme="dark">
          <Message message={shown} grouped={false} users={users} byId={new Map()} {...(file ? { file } : {})} />
        </DiscordSurface>,
      ).container;
    const page = one();
    expect([...page.querySelectorAll('img')].map((i) => i.getAttribute('src'))).toEqual(['https://cdn.discordapp.com/avatars/1/a.png', 'https://cdn.discordapp.com/attachments/1/2/chart.png']);
    const file = one({ images: new Map(), origin: 'https://tickety.example' });
    expect(file.querySelectorAll('img')).toHaveLength(0);
    const opener = render(<Message message={transcript.messages[1]!} grouped={false} users={users} byId={new Map()} />).container;
    expect(opener.querySelector('img')).toBeNull();
  });

  it('shows an embed as Discord does: the author with picture and link, the title linked, the fields, inline ones side by side', () => {
    const transcript = fixture();
    const embed: TranscriptV2['messages'][number]['embeds'][number] = {
      title: 'Support',
      description: 'Thanks for reaching out.',
      url: 'https://tickety.example/help',
      colour: 0x10b981,
      author: { name: 'Cleo', url: 'https://tickety.example/u/cleo', iconUrl: 'https://cdn.discordapp.com/avatars/1/c.png' },
      fields: [
        { name: 'What do you need help with?', value: 'My **season pass** is gone', inline: false },
        { name: 'In-game name', value: 'cleo_42', inline: true },
        { name: 'Platform', value: 'PC', inline: true },
        { name: 'Region', value: 'EU', inline: true },
        { name: 'Order', value: 'AA-1', inline: true },
      ],
      footer: { text: 'Ticket #7', iconUrl: null },
      imageUrl: null,
      thumbnailUrl: null,
      timestamp: null,
    };
    const shown = { ...transcript.messages[3]!, content: '', embeds: [embed] };
    const users = new Map(transcript.users.map((u) => [u.id, u]));
    const one = (file?: { images: Map<string, string>; origin: string }) =>
      render(
        <DiscordSurface theme="light">
          <Message message={shown} grouped={true} users={users} byId={new Map()} {...(file ? { file } : {})} />
        </DiscordSurface>,
      ).container;
    for (const container of [one(), one({ images: new Map(), origin: 'https://tickety.example' })]) {
      const page = within(container);
      expect(page.getByRole('link', { name: 'Support' })).toHaveAttribute('href', 'https://tickety.example/help');
      expect(page.getByRole('link', { name: 'Cleo' })).toHaveAttribute('href', 'https://tickety.example/u/cleo');
      for (const a of container.querySelectorAll('a')) expect(a).toHaveAttribute('rel', 'noopener noreferrer nofollow');
      // The fields as name and value pairs, in their order, the value with its markdown.
      const terms = page.getAllByRole('term').map((dt) => dt.textContent);
      expect(terms).toEqual(['What do you need help with?', 'In-game name', 'Platform', 'Region', 'Order']);
      expect(page.getAllByRole('definition').map((dd) => dd.textContent)).toEqual(['My season pass is gone', 'cleo_42', 'PC', 'EU', 'AA-1']);
      expect(page.getByText('season pass').tagName).toBe('STRONG');
      // A field alone on its row, three inline ones side by side, the fourth inline on a row of its own
      // (in a wide embed: a narrow one puts inline fields two to a row, or one).
      const spans = page.getAllByRole('term').map((dt) => dt.parentElement!.className.match(/col-span-\d+/g)?.at(-1));
      expect(spans).toEqual(['col-span-12', 'col-span-4', 'col-span-4', 'col-span-4', 'col-span-12']);
      expect(page.getByText('Ticket #7')).toBeInTheDocument();
    }
    // The author's picture on the page (Discord's CDN, as the page's policy allows); none in the file.
    expect([...one().querySelectorAll('img')].map((i) => i.getAttribute('src'))).toEqual(['https://cdn.discordapp.com/avatars/1/c.png']);
    expect(one({ images: new Map(), origin: 'https://tickety.example' }).querySelectorAll('img')).toHaveLength(0);
  });

  it('lays out inline fields three to a row, two beside a thumbnail', () => {
    const field = (inline: boolean) => ({ name: 'n', value: 'v', inline });
    expect(fieldSpans([field(true), field(true), field(true), field(true), field(true)], false)).toEqual([4, 4, 4, 6, 6]);
    expect(fieldSpans([field(true), field(true), field(true)], true)).toEqual([6, 6, 12]);
    expect(fieldSpans([field(true), field(false), field(true), field(true)], false)).toEqual([12, 12, 6, 6]);
    expect(fieldSpans([field(false), field(false)], false)).toEqual([12, 12]);
    expect(fieldSpans([], false)).toEqual([]);
  });

  it('links an embed to http(s) addresses only: a script, data or disguised address stays text', () => {
    expect(embedLink('https://tickety.example/help?x=1#y')).toBe('https://tickety.example/help?x=1#y');
    expect(embedLink('HTTP://Tickety.Example/a')).toBe('http://tickety.example/a');
    for (const url of [
      'javascript:top.__xss=1',
      'JaVaScRiPt:top.__xss=1',
      ' javascript:top.__xss=1',
      'java\tscript:top.__xss=1',
      '&#106;avascript:top.__xss=1',
      'data:text/html,<script>top.__xss=1</script>',
      'vbscript:msgbox(1)',
      '//evil.example/x',
      '/api/auth/logout',
      'https://tickety.example/a b',
      'https://',
      '',
      null,
    ]) {
      expect(embedLink(url), String(url)).toBeNull();
    }
  });

  it('loads the transcript from the API and shows its header', async () => {
    const { unexpected } = mockApi({ [`GET /api/transcripts/v2/${ARCADE.id}/t7`]: served(fixture()) });
    ({ store } = show());
    expect(await screen.findByRole('heading', { level: 1, name: 'Ticket #7 · #ticket-0007' })).toBeInTheDocument();
    expect(screen.getByText('Solved', { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download JSON' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download HTML' })).toBeEnabled();
    expect(unexpected).toEqual([]);
  });

  it('searches the messages, with a count and next and previous', async () => {
    mockApi({ [`GET /api/transcripts/v2/${ARCADE.id}/t7`]: served(fixture()) });
    ({ store } = show());
    const input = await screen.findByRole('searchbox', { name: 'Search this transcript' });
    await userEvent.type(input, 'SEASON PASS');
    expect(screen.getByRole('status')).toHaveTextContent('1 of 2');
    await userEvent.type(input, '{Enter}');
    expect(screen.getByRole('status')).toHaveTextContent('1 of 2');
    await userEvent.click(screen.getByRole('button', { name: 'Next match' }));
    expect(screen.getByRole('status')).toHaveTextContent('2 of 2');
    await userEvent.clear(input);
    await userEvent.type(input, 'nothing like it');
    expect(screen.getByRole('status')).toHaveTextContent('No match');
  });

  it('paints the head first, then the whole transcript; search and downloads wait for it', async () => {
    const whole = fixture();
    whole.messages.push(...Array.from({ length: 200 }, (_, i) => ({ ...whole.messages[3]!, id: String(1700000000000000000n + BigInt(i)), content: `later ${i}` })));
    let release: () => void = () => undefined;
    const held = new Promise<void>((ok) => {
      release = ok;
    });
    const { calls } = mockApi({
      [`GET /api/transcripts/v2/${ARCADE.id}/t7`]: async (url: URL) => {
        if (url.searchParams.get('part') === 'head') return json({ ...whole, messages: whole.messages.slice(0, 4), totalMessages: whole.messages.length });
        await held;
        return json(whole);
      },
    });
    ({ store } = show());
    // The head is on the page (jsdom lays out no rows: the end-to-end test sees them) while the rest is on its way.
    await screen.findByRole('heading', { level: 1, name: 'Ticket #7 · #ticket-0007' });
    expect(screen.getByText(`Loading the other ${whole.messages.length - 4} messages…`)).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search this transcript' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Download JSON' })).toBeDisabled();
    expect(screen.getByText(String(whole.messages.length), { exact: false })).toBeInTheDocument();
    release();
    await waitFor(() => expect(screen.getByRole('searchbox', { name: 'Search this transcript' })).toBeEnabled());
    expect(screen.queryByText(/Loading the other/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Download JSON' })).toBeEnabled();
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search this transcript' }), 'later 19');
    expect(screen.getAllByRole('status').some((s) => /1 of 11/.test(s.textContent ?? ''))).toBe(true);
    expect(calls(`/api/transcripts/v2/${ARCADE.id}/t7`)).toHaveLength(2);
  });

  it('indexes and searches 50,000 messages', () => {
    const big = fixture();
    big.messages = Array.from({ length: 50_000 }, (_, i) => ({ ...big.messages[1]!, id: String(1700000000000000000n + BigInt(i)), content: i % 1000 === 0 ? 'needle here' : `message ${i}` }));
    const index = buildIndex(big);
    expect(search(index, 'NEEDLE')).toHaveLength(50);
    expect(search(index, '  ')).toEqual([]);
  });

  it('makes a standalone HTML file: every message, hostile text as text, and a policy that runs no script', async () => {
    const transcript = fixture();
    transcript.messages.push(...Array.from({ length: 900 }, (_, i) => ({ ...transcript.messages[3]!, id: String(1700000000000000000n + BigInt(i)), content: `filler ${i} ${HOSTILE}` })));
    const names: DiscordNames = { loaded: true, roles: new Map(transcript.roles.map((r) => [r.id, { name: r.name, color: 0 }])), channels: new Map(), users: new Map(), emojiUrl: () => '' };
    const seen: number[] = [];
    const blob = await standaloneHtml(
      { transcript, names, users: new Map(transcript.users.map((u) => [u.id, u])), byId: new Map(transcript.messages.map((m) => [m.id, m])), header: <h1>{`Ticket #7 ${HOSTILE}`}</h1> },
      (f) => seen.push(f),
      new AbortController().signal,
    );
    const text = await blob.text();
    expect(blob.type).toBe('text/html;charset=utf-8');
    expect(text.startsWith('<!DOCTYPE html>')).toBe(true);
    const doc = new DOMParser().parseFromString(text, 'text/html');
    // The policy is the first thing after the charset, before any content.
    expect(doc.head.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content')).toBe(FILE_CSP);
    expect(FILE_CSP).toContain("default-src 'none'");
    expect(doc.querySelectorAll('article[id^="m-"]')).toHaveLength(transcript.messages.length - 1);
    expect(doc.body.textContent).toContain('filler 899');
    expect(doc.querySelector('h1')?.textContent).toBe(`Ticket #7 ${HOSTILE}`);
    expect(doc.querySelectorAll('script, iframe, object, embed, button, [onerror], [onclick], [onload]')).toHaveLength(0);
    expect(doc.querySelectorAll('img')).toHaveLength(0);
    for (const a of doc.querySelectorAll('a')) expect(a.getAttribute('href') ?? '').not.toMatch(/^\s*(javascript|data):/i);
    // The reply is a link to the message it answers.
    expect(doc.querySelector(`a[href="#m-${transcript.messages[1]!.id}"]`)).not.toBeNull();
    expect(seen.at(-1)).toBe(1);
    expect(seen.length).toBeGreaterThan(2);
  });
});
