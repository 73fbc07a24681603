/**
 * Transcripts (v2) the demo bot uploads for closed tickets: the messages a ticket like it would
 * have — the bot's welcome embed (the opener as its author, the form's answers as fields), markdown,
 * code blocks, mentions, replies, reactions, a sticker, an edit, files and system lines.
 * Deterministic per ticket. Long tickets (5,000 and 50,000 messages) repeat a realistic
 * conversation with varied text.
 */
import { DEMO_APP, DEMO_GUILD_DATA } from '../discord/demo-data';
import { DEMO_TICKET_FILES, demoAttachment } from './files';
import { type DemoServer, type DemoTicket, demoUserName, hash, prng } from './history';

const MINUTE = 60_000;

export interface DemoTranscriptOptions {
  /** The sandbox CDN's base (`.../sandbox/discord/cdn`), for avatars and images. */
  cdnBase: string;
  /** How many messages (a long ticket repeats the conversation). */
  messages?: number;
  /** When the files' CDN links were issued (Discord signs them; they expire a day later). Default: the ticket's close. */
  issuedMs?: number;
}

/** Deterministic snowflake-like ids for a ticket's messages. */
function messageId(ticket: DemoTicket, count: number): string {
  return String(1600000000000000000n + BigInt(hash(ticket.ticketId) % 1_000_000) * 100_000n + BigInt(count));
}

const LINES = [
  'Hi! Thanks for opening a ticket. Could you tell me your **in-game name**?',
  'Sure, it is `{name}` on the EU server.',
  'Thanks <@{opener}>, I can see the order. Let me check with <@&{role}>.',
  'Here is what the log says:\n```js\nconst order = await shop.find("AA-12345");\nconsole.log(order.status); // "paid"\n```',
  'Is there anything in <#{channel}> about this? I could not find it.',
  'Not yet, we will post it there once the fix is live. > Patch notes come out on Friday.',
  'Could you try again now? I pushed the item to your inventory manually.',
  '||spoiler: it was the cache|| — all good now, *thank you*!',
  'Great, glad it works :) Closing this ticket in a minute.',
  'See https://tickety.example/help/orders for how refunds work.',
];

/** The welcome embed's short form answers (inline fields), picked per ticket. */
const PLATFORMS = ['PC', 'PlayStation', 'Xbox', 'Switch', 'Mobile'];
const REGIONS = ['Europe', 'North America', 'South America', 'Asia', 'Oceania'];

/** A ticket's transcript (`TranscriptV2`, packages/api-contract/src/bot-api.ts). */
export function demoTranscript(server: DemoServer, ticket: DemoTicket, options: DemoTranscriptOptions) {
  const random = prng(hash(`transcript:${ticket.ticketId}`));
  const data = DEMO_GUILD_DATA[server.id];
  const panel = server.panels.find((p) => p.id === ticket.panelId);
  const role = panel?.supportRoleIds[0] ?? data?.roles[0]?.id ?? server.id;
  const channelId = String(1700000000000000000n + BigInt(hash(ticket.ticketId) % 1_000_000_000));
  const support = data?.channels.find((c) => c.type === 0)?.id ?? channelId;
  const botId = DEMO_APP.clientId;
  const opener = demoUserName(ticket.openerId);
  const total = Math.max(6, options.messages ?? 8 + Math.floor(random() * 10));
  const start = ticket.openedAt;
  const end = ticket.finalClosedAt ?? ticket.closedAt ?? start + total * MINUTE;
  const issued = options.issuedMs ?? end;
  const step = Math.max(1000, Math.floor((end - start) / (total + 1)));
  const at = (n: number) => new Date(start + n * step).toISOString();
  const fill = (text: string) => text.replaceAll('{name}', opener.displayName ?? opener.username).replaceAll('{opener}', ticket.openerId).replaceAll('{role}', role).replaceAll('{channel}', support);
  const message = (count: number, authorId: string, content: string, extra: Record<string, unknown> = {}) => ({
    id: messageId(ticket, count),
    authorId,
    content,
    createdAt: at(count),
    editedAt: null,
    system: null,
    replyTo: null,
    embeds: [],
    attachments: [],
    reactions: [],
    stickers: [],
    ...extra,
  });

  const messages: Array<ReturnType<typeof message>> = [];
  messages.push(message(0, botId, '', { system: 'ticket_opened' }));
  // The welcome embed: who opened it (with their picture and profile link), the title linking to the
  // ticket's channel, and the form's answers as fields, the short ones inline. Its own random
  // sequence, so the rest of the transcript is what it was.
  const form = prng(hash(`form:${ticket.ticketId}`));
  const openerName = opener.displayName ?? opener.username;
  messages.push(
    message(1, botId, `<@${ticket.openerId}> welcome! <@&${role}> will be with you shortly.`, {
      embeds: [
        {
          title: panel?.name ?? 'Support',
          description: 'Thanks for reaching out. Please describe your problem; a member of the team will answer here.',
          url: `https://discord.com/channels/${server.id}/${channelId}`,
          colour: 0x10b981,
          author: { name: openerName, url: `https://discord.com/users/${ticket.openerId}`, iconUrl: `${options.cdnBase}/embed/avatars/${Number(BigInt(ticket.openerId) % 6n)}.png` },
          fields: [
            { name: panel?.question ?? 'What do you need help with?', value: ticket.answer, inline: false },
            { name: 'In-game name', value: opener.username, inline: true },
            { name: 'Platform', value: PLATFORMS[Math.floor(form() * PLATFORMS.length)]!, inline: true },
            { name: 'Region', value: REGIONS[Math.floor(form() * REGIONS.length)]!, inline: true },
          ],
          footer: { text: `Ticket #${ticket.number}`, iconUrl: null },
          imageUrl: null,
          thumbnailUrl: null,
          timestamp: at(1),
        },
      ],
    }),
  );
  messages.push(message(2, ticket.openerId, ticket.answer));
  if (ticket.firstResponseAt !== null) messages.push(message(3, botId, '', { system: 'ticket_claimed' }));
  let remaining = messages.length;
  let line = 0;
  while (remaining < total - 1) {
    const staffTurn = line % 2 === 0;
    const authorId = ticket.firstResponseAt === null || !staffTurn ? ticket.openerId : ticket.staffId;
    const text = fill(LINES[line % LINES.length]!);
    const content = total > 100 ? `${text} (${Math.floor(remaining / LINES.length) + 1})` : text;
    const extra: Record<string, unknown> = {};
    if (line === 1) extra.replyTo = messageId(ticket, 2);
    if (line === 2) extra.reactions = [{ emoji: { name: '👍' }, count: 1 }];
    if (line === 6) extra.editedAt = new Date(Date.parse(at(remaining)) + 30_000).toISOString();
    if (line === 7) extra.reactions = [{ emoji: { name: '🎉' }, count: 2 }, { emoji: { id: data?.emojis[0]?.id ?? '1500000000000001001', name: data?.emojis[0]?.name ?? 'ticket', animated: false }, count: 1 }];
    if (line === 8 && remaining < 40) extra.stickers = [{ id: '1800000000000000001', name: 'Thumbs up', format: 'png' }];
    if (line === 3 && remaining < 40) extra.attachments = [demoAttachment(DEMO_TICKET_FILES[0]!, options.cdnBase, issued)];
    if (line === 6 && remaining < 40) extra.attachments = [demoAttachment(DEMO_TICKET_FILES[1]!, options.cdnBase, issued)];
    messages.push(message(remaining, authorId, content, extra));
    remaining++;
    line++;
  }
  messages.push(message(remaining, botId, '', { system: 'ticket_closed' }));

  const ids = new Set(messages.map((m) => m.authorId));
  const staff = new Set(server.staff);
  type User = { id: string; username: string; displayName: string | null; avatarUrl: string | null; bot: boolean; staff: boolean; colour: number | null };
  const users = [...ids].map((id): User => {
    if (id === botId) return { id, username: 'Tickety', displayName: null, avatarUrl: null, bot: true, staff: false, colour: null };
    const name = demoUserName(id);
    return { id, username: name.username, displayName: name.displayName, avatarUrl: `${options.cdnBase}/embed/avatars/${Number(BigInt(id) % 6n)}.png`, bot: false, staff: staff.has(id), colour: staff.has(id) ? 0x10b981 : null };
  });
  if (!ids.has(ticket.openerId)) {
    const name = demoUserName(ticket.openerId);
    users.push({ id: ticket.openerId, username: name.username, displayName: name.displayName, avatarUrl: null, bot: false, staff: false, colour: null });
  }
  return {
    version: 2 as const,
    server: { id: server.id, name: server.name, iconUrl: null },
    channel: { id: channelId, name: `ticket-${String(ticket.number).padStart(4, '0')}` },
    ticket: {
      id: ticket.ticketId,
      number: ticket.number,
      panelId: ticket.panelId,
      openerId: ticket.openerId,
      openedAt: new Date(start).toISOString(),
      closedAt: new Date(end).toISOString(),
      closedBy: ticket.closedBy,
      reason: ticket.abandoned ? 'Closed by the opener' : 'Resolved',
    },
    users,
    roles: (data?.roles ?? []).map((r) => ({ id: r.id, name: r.name, colour: r.color || null })),
    channels: (data?.channels ?? []).filter((c) => c.type === 0).map((c) => ({ id: c.id, name: c.name })),
    messages,
  };
}

/** The transcript's file id (the viewer's `:fileid`). */
export function transcriptFileId(ticket: DemoTicket, suffix = ''): string {
  return `t-${ticket.ticketId}${suffix}`;
}
