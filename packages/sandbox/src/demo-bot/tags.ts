/**
 * Tags (canned replies) at the demo bot's desk (docs/sandbox.md, "The demo bot's desk"): a support
 * member's `/tag <name>` in a ticket, and the tag's embed on a dashboard reply written from a tag.
 * `/tag` searches the server's tags through the bot API (`GET /api/bot/v1/servers/:server/tags?q=`,
 * as a real bot fills Discord's autocomplete), posts the tag's message as the bot and reports the use
 * (`tag_used`, which Statistics counts).
 */
import type { Desk, DeskTicket } from './desk';
import type { DiscordMessage } from './discord';

/** A tag as the bot API answers it (`Tag`: the embed is the dashboard's `EmbedConfig`). */
export interface BotTag {
  id: string;
  name: string;
  content: string;
  embed: { title: string; description: string; colour: number | null; imageUrl: string | null; thumbnailUrl: string | null; footer: string } | null;
  keywords: string[];
}

/** Refused input of `/tag` (not a support member, no such tag): the control route answers 400 with the message. */
export class TagCommandError extends Error {}

/** What a member types to use a tag: `/tag name` (the name's case ignored, as Discord's autocomplete matches). */
const TAG_COMMAND = /^\/tag\s+(\S{1,32})\s*$/i;

/** The tag's name when `text` is a `/tag` command, else null. */
export function tagCommandName(text: string): string | null {
  const match = TAG_COMMAND.exec(text.trim());
  return match ? match[1]!.toLowerCase() : null;
}

/** A tag's embed as Discord takes it: empty texts and unset values left out. */
export function discordEmbed(embed: NonNullable<BotTag['embed']>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (embed.title.trim() !== '') out.title = embed.title;
  if (embed.description.trim() !== '') out.description = embed.description;
  if (embed.colour !== null) out.color = embed.colour;
  if (embed.imageUrl) out.image = { url: embed.imageUrl };
  if (embed.thumbnailUrl) out.thumbnail = { url: embed.thumbnailUrl };
  if (embed.footer.trim() !== '') out.footer = { text: embed.footer };
  return out;
}

/**
 * The embeds of a dashboard reply: the staff member's (their name and avatar as its author, the text
 * as its description) and, for a reply written from a tag with an embed, the tag's embed after it.
 * A reply of a tag's embed alone (no text) is that embed with the staff member as its author.
 */
export function replyEmbeds(staff: Record<string, unknown>, content: string, tagEmbed: Record<string, unknown> | undefined): Array<Record<string, unknown>> {
  if (!tagEmbed) return [staff];
  if (content.trim() === '') return [{ ...tagEmbed, author: staff.author }];
  return [staff, tagEmbed];
}

/** The server's tags whose name or keywords match `query` (the bot API's search, at most 25). */
export async function searchTags(desk: Desk, serverId: string, query: string): Promise<BotTag[]> {
  const res = await desk.botApi('GET', `/servers/${serverId}/tags?q=${encodeURIComponent(query)}`);
  if (res.status !== 200) throw new Error(`the bot API refused the tag search: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return ((await res.json()) as { tags: BotTag[] }).tags;
}

/**
 * A support member's `/tag <name>` in a ticket: the tag found by its name (as the autocomplete's
 * choice), its message posted by the bot (text and embed; mentions not pinged) and counted as the
 * member's, and `tag_used` sent. The command itself is an interaction, not a message: nothing of it
 * shows in the channel. Refused (TagCommandError) for someone not on the server's support team, or
 * a name no tag has.
 */
export async function useTag(desk: Desk, ticket: DeskTicket, staffId: string, name: string): Promise<{ message: DiscordMessage; tag: BotTag }> {
  if (ticket.closed) throw new TagCommandError(`Ticket ${ticket.ticketId} is closed.`);
  if (!ticket.server.staff.includes(staffId)) throw new TagCommandError(`Only the support team of ${ticket.server.name} can use /tag.`);
  const wanted = name.trim().toLowerCase();
  const tag = (await searchTags(desk, ticket.server.id, wanted)).find((found) => found.name === wanted);
  if (!tag) throw new TagCommandError(`${ticket.server.name} has no tag called "${wanted}".`);
  const message = await desk.discord.call<DiscordMessage>('POST', `/channels/${ticket.channelId}/messages`, {
    ...(tag.content.trim() !== '' ? { content: tag.content } : {}),
    ...(tag.embed ? { embeds: [discordEmbed(tag.embed)] } : {}),
    allowed_mentions: { parse: [] },
  });
  await desk.record(ticket, message, staffId);
  await desk.events(ticket, [{ id: desk.eventId(ticket, `g:${message.id}`), type: 'tag_used', at: new Date(desk.clock()).toISOString(), tagId: tag.id, staffId }]);
  return { message, tag };
}

/**
 * A support member writes in a ticket (the desk's control: the sandbox's channel page is read-only):
 * `/tag <name>` uses the tag, anything else is posted as their message. `staffId` defaults to the
 * ticket's claimer, else its support member.
 */
export async function staffWrites(desk: Desk, ticket: DeskTicket, content: string, staffId?: string): Promise<{ messageId: string; tagId: string | null }> {
  const author = staffId ?? ticket.claimedBy ?? desk.staffFor(ticket);
  const name = tagCommandName(content);
  if (name !== null) {
    const used = await useTag(desk, ticket, author, name);
    return { messageId: used.message.id, tagId: used.tag.id };
  }
  if (!ticket.server.staff.includes(author)) throw new TagCommandError(`${author} is not on the support team of ${ticket.server.name}.`);
  if (content.trim() === '') throw new TagCommandError('Write something: the message is empty.');
  const message = await desk.staffWrites(ticket, author, content);
  return { messageId: message.id, tagId: null };
}
