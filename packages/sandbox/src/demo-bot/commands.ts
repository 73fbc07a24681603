/**
 * The demo bot's side of the bot commands (docs/api.md, "Bot commands"): one long poll at a time
 * (`GET /api/bot/v1/commands?wait=25`), each command carried out in the sandbox's Discord, then
 * reported with the `attempt` it came with. The API is down or refuses: it waits (1 s doubling to
 * 30 s, or the Retry-After) and polls again. How each kind is done: docs/sandbox.md, "The demo bot's desk".
 */
import { type Desk, type DeskTicket, deskKey } from './desk';
import { DiscordError, type DiscordChannel, type DiscordMessage, type FetchLike, failureOf } from './discord';
import { askFeedback } from './feedback';
import { replyEmbeds } from './tags';

/** A command as the bot receives it (the bot API's `BotCommand`; unknown fields ignored). */
export interface ReceivedCommand {
  id: string;
  kind: string;
  serverId: string;
  ticketId: string;
  attempt: number;
  requestedBy: { id: string; name: string; avatarUrl: string | null };
  content?: string;
  reason?: string | null;
  userId?: string;
  labels?: string[];
  /** Files staff attached to a reply (`{ filename, contentType, size, url }`, `url` on the API). */
  attachments?: Array<{ filename?: unknown; contentType?: unknown; size?: unknown; url?: unknown }>;
  /** A reply written from a tag: its id, and its embed (posted with the text; tags.ts). */
  tagId?: string;
  embed?: Record<string, unknown>;
}

export type CommandOutcome = { outcome: 'done'; messageId?: string } | { outcome: 'failed'; reason: string; message?: string };

export interface CommandLoopOptions {
  apiBase: string;
  key: string;
  fetch?: FetchLike;
  /** Seconds a poll waits (default 25, the most the API allows). */
  waitSeconds?: number;
  /** The first and the longest pause after a failed poll (default 1 s and 30 s). */
  backoffMs?: { first: number; max: number };
}

export interface CommandLoop {
  /** Commands carried out so far (reported or not). */
  readonly handled: number;
  stop(): Promise<void>;
}

const VIEW_SEND_HISTORY = String((1n << 10n) | (1n << 11n) | (1n << 16n));

/** The message nonce of a reply: Discord takes at most 25 characters, so the id without `cmd_`, cut to 25. */
export function replyNonce(commandId: string): string {
  return commandId.replace(/^cmd_/, '').slice(0, 25);
}

const failed = (reason: string, message?: string): CommandOutcome => ({ outcome: 'failed', reason, ...(message ? { message: message.slice(0, 500) } : {}) });
const done = (messageId?: string): CommandOutcome => ({ outcome: 'done', ...(messageId ? { messageId } : {}) });

const KINDS = new Set(['reply', 'claim', 'unclaim', 'close', 'add_member', 'set_labels']);

/**
 * Carries out one command in Discord and answers its outcome (never throws). A ticket the desk does
 * not know (the generated history's, or one opened before a restart) is adopted first: it gets a
 * channel (`Desk.adopt`). One it knows whose channel was deleted fails as `channel_gone`.
 */
export async function execute(desk: Desk, command: ReceivedCommand): Promise<CommandOutcome> {
  try {
    if (!KINDS.has(command.kind)) return failed('unsupported', `The demo bot does not know the command kind "${command.kind}".`);
    let ticket = desk.tickets.get(deskKey(command.serverId, command.ticketId));
    if (!ticket) {
      const server = desk.options.servers.find((s) => s.id === command.serverId);
      if (!server) return failed('other', 'The demo bot read no configuration of this server, so it works in no ticket there.');
      ticket = await desk.adopt(server, command.ticketId);
    }
    // Whoever acted from the dashboard is named in the transcript (who closed it, their mentions).
    desk.knowStaff(ticket, command.requestedBy);
    switch (command.kind) {
      case 'reply':
        return await reply(desk, ticket, command);
      case 'claim':
        if (ticket.closed) return failed('ticket_closed');
        if (ticket.claimedBy !== command.requestedBy.id) await desk.claim(ticket, command.requestedBy.id);
        return done();
      case 'unclaim':
        return await unclaim(desk, ticket, command);
      case 'close':
        return await close(desk, ticket, command);
      case 'add_member':
        return await addMember(desk, ticket, command);
      case 'set_labels':
        return await setLabels(desk, ticket, command);
    }
    return failed('unsupported', `The demo bot does not know the command kind "${command.kind}".`);
  } catch (error) {
    const failure = failureOf(error);
    desk.log.warn({ command: command.id, kind: command.kind, reason: failure.reason, err: failure.message }, 'demo bot: a command failed');
    return failed(failure.reason, failure.message);
  }
}

/**
 * A staff member's reply, posted by the bot with their name and avatar as the embed's author (why
 * not a webhook: docs/sandbox.md, "The demo bot's desk"). The nonce with `enforce_nonce` makes a
 * repeated delivery answer the message posted the first time instead of posting it again.
 */
async function reply(desk: Desk, ticket: DeskTicket, command: ReceivedCommand): Promise<CommandOutcome> {
  if (ticket.closed) return failed('ticket_closed');
  if (typeof command.content !== 'string' || (command.content.trim() === '' && !command.embed)) return failed('other', 'The reply has no text.');
  const files = Array.isArray(command.attachments) ? command.attachments : [];
  if (files.length > 10) return failed('other', 'A message carries at most 10 files on Discord.');
  const downloads: Array<{ filename: string; contentType: string; bytes: Buffer }> = [];
  for (const file of files) {
    const download = await downloadFile(desk, file);
    if ('reason' in download) return failed(download.reason, download.message);
    downloads.push(download);
  }
  const avatar = command.requestedBy.avatarUrl;
  const payload = {
    embeds: replyEmbeds(
      {
        author: { name: command.requestedBy.name.slice(0, 256) || 'Support', ...(avatar && /^https?:\/\//.test(avatar) ? { icon_url: avatar } : {}) },
        description: command.content,
        color: 0x10b981,
        footer: { text: `${ticket.server.name} · support team`.slice(0, 2048) },
      },
      command.content,
      command.embed,
    ),
    allowed_mentions: { parse: [] },
    nonce: replyNonce(command.id),
    enforce_nonce: true,
  };
  let body: unknown = payload;
  if (downloads.length > 0) {
    // An upload: the JSON as payload_json, each file as files[n] (Discord's multipart form).
    const form = new FormData();
    form.append('payload_json', JSON.stringify({ ...payload, attachments: downloads.map((file, index) => ({ id: index, filename: file.filename })) }));
    for (const [index, file] of downloads.entries()) form.append(`files[${index}]`, new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), file.filename);
    body = form;
  }
  const message = await desk.discord.call<DiscordMessage>('POST', `/channels/${ticket.channelId}/messages`, body);
  await desk.record(ticket, message, command.requestedBy.id);
  return done(message.id);
}

/** A reply file the bot downloads is at most this large (the API's limit for one) and takes at most this long. */
const DOWNLOAD_MAX_BYTES = 10 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 30_000;

/**
 * A reply's file, downloaded from the API with the bot's key (`GET /api/bot/v1/attachments/:id`,
 * docs/api.md). The key is sent to that path of the API only (no redirects followed): a file anywhere
 * else is refused, as is one larger than DOWNLOAD_MAX_BYTES or slower than DOWNLOAD_TIMEOUT_MS.
 */
async function downloadFile(desk: Desk, file: NonNullable<ReceivedCommand['attachments']>[number]): Promise<{ filename: string; contentType: string; bytes: Buffer } | { reason: string; message: string }> {
  const files = new URL(`${desk.options.apiBase.replace(/\/+$/, '')}/api/bot/v1/attachments/`);
  let url: URL;
  try {
    url = new URL(String(file.url ?? ''), files);
  } catch {
    return { reason: 'other', message: 'A reply file has no address the bot can read.' };
  }
  const id = url.pathname.slice(files.pathname.length);
  if (url.origin !== files.origin || !url.pathname.startsWith(files.pathname) || !/^[A-Za-z0-9_-]+$/.test(id)) {
    return { reason: 'other', message: 'A reply file is not on the API: the bot fetches files from the API only (its /api/bot/v1/attachments/).' };
  }
  const tooLarge = { reason: 'other', message: `A reply file is larger than ${DOWNLOAD_MAX_BYTES / 1024 / 1024} MB: the bot does not download it.` };
  try {
    const res = await desk.fetch(url.href, { headers: { authorization: `Bearer ${desk.options.key}` }, redirect: 'error', signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      return { reason: 'other', message: `The reply file could not be downloaded from the API (${res.status}${res.status === 404 ? ': deleted, or never sent' : ''}).` };
    }
    if (Number(res.headers.get('content-length') ?? 0) > DOWNLOAD_MAX_BYTES) {
      await res.body?.cancel().catch(() => undefined);
      return tooLarge;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = res.body?.getReader();
    for (let read = await reader?.read(); reader && read && !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > DOWNLOAD_MAX_BYTES) {
        await reader.cancel().catch(() => undefined);
        return tooLarge;
      }
      chunks.push(read.value);
    }
    const filename = typeof file.filename === 'string' && file.filename !== '' ? file.filename : 'file';
    const contentType = typeof file.contentType === 'string' && file.contentType !== '' ? file.contentType : 'application/octet-stream';
    return { filename, contentType, bytes: Buffer.concat(chunks) };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return { reason: 'other', message: timedOut ? 'The reply file took too long to download from the API.' : 'The reply file could not be downloaded from the API (no answer).' };
  }
}

async function unclaim(desk: Desk, ticket: DeskTicket, command: ReceivedCommand): Promise<CommandOutcome> {
  if (ticket.closed) return failed('ticket_closed');
  const staffId = ticket.claimedBy;
  if (staffId === null) return done();
  const message = await desk.botSays(ticket, `↩️ <@${staffId}> released this ticket${staffId === command.requestedBy.id ? '' : ` (by <@${command.requestedBy.id}>)`}: anyone on the team may take it.`);
  ticket.claimedBy = null;
  await desk.events(ticket, [{ id: desk.eventId(ticket, `u:${message.id}`), type: 'unclaimed', at: new Date(desk.clock()).toISOString(), staffId }]);
  return done();
}

/**
 * The closing line (`line`: auto-close's own), `closed`, the transcript and `transcript_stored`, then
 * the channel goes: each step once, a repeat finishes what is left.
 */
export async function close(desk: Desk, ticket: DeskTicket, command: Pick<ReceivedCommand, 'requestedBy' | 'reason'>, line?: string): Promise<CommandOutcome> {
  if (!ticket.closed) {
    const reason = command.reason ?? null;
    await desk.botSays(ticket, line ?? `🔒 <@${command.requestedBy.id}> closed this ticket${reason ? `: ${reason}` : '.'} The conversation is kept as a transcript.`);
    const at = desk.clock();
    ticket.closed = { by: command.requestedBy.id, reason, at, transcript: false, channelDeleted: false };
    await desk.events(ticket, [{ id: desk.eventId(ticket, 'x'), type: 'closed', at: new Date(at).toISOString(), closedBy: command.requestedBy.id, reason }]);
  }
  if (!ticket.closed.transcript) {
    // An adopted ticket the desk cannot place has no transcript: it needs the opener and the number.
    const placed = ticket.openerId !== null && ticket.number !== null;
    if (placed && !(await desk.uploadTranscript(ticket))) return failed('other', 'The API refused the transcript (see the demo bot’s log).');
    ticket.closed.transcript = true;
  }
  if (!ticket.closed.channelDeleted) {
    try {
      await desk.discord.call('DELETE', `/channels/${ticket.channelId}`);
    } catch (error) {
      if (!(error instanceof DiscordError && error.code === 10003)) throw error;
    }
    ticket.closed.channelDeleted = true;
  }
  // The opener is asked for a rating when the panel wants feedback (once; never fails the close).
  await askFeedback(desk, ticket);
  return done();
}

async function addMember(desk: Desk, ticket: DeskTicket, command: ReceivedCommand): Promise<CommandOutcome> {
  if (ticket.closed) return failed('ticket_closed');
  const userId = command.userId ?? '';
  await desk.discord.call('GET', `/guilds/${ticket.server.id}/members/${userId}`);
  const channel = await desk.discord.call<DiscordChannel & { permission_overwrites: Array<{ id: string; allow: string }> }>('GET', `/channels/${ticket.channelId}`);
  const present = channel.permission_overwrites.some((o) => o.id === userId && (BigInt(o.allow) & (1n << 10n)) !== 0n);
  if (present) return done();
  await desk.discord.call('PUT', `/channels/${ticket.channelId}/permissions/${userId}`, { type: 1, allow: VIEW_SEND_HISTORY, deny: '0' });
  await desk.botSays(ticket, `👋 <@${userId}> was added to this ticket by <@${command.requestedBy.id}>.`);
  return done();
}

async function setLabels(desk: Desk, ticket: DeskTicket, command: ReceivedCommand): Promise<CommandOutcome> {
  ticket.labels = [...(command.labels ?? [])];
  if (ticket.closed) return done();
  const labels = ticket.labels.length > 0 ? ` · labels: ${ticket.labels.join(', ')}` : '';
  const name = ticket.number === null ? `Ticket ${ticket.ticketId}` : `Ticket #${ticket.number}`;
  await desk.discord.call('PATCH', `/channels/${ticket.channelId}`, { topic: `${name} · ${ticket.panel.name}${labels}`.slice(0, 1024) });
  return done();
}

/** Starts the poll loop: one poll at a time, commands carried out in order, each reported. */
export function startCommandLoop(desk: Desk, options: CommandLoopOptions): CommandLoop {
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const controller = new AbortController();
  const stopped = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new Error('stopped'))));
  stopped.catch(() => undefined);
  const first = options.backoffMs?.first ?? 1000;
  const max = options.backoffMs?.max ?? 30_000;
  let handled = 0;

  // A fetch that ignores the signal (a test's in-process one) still ends the loop at once.
  const untilStopped = <T>(work: Promise<T>): Promise<T> => Promise.race([work, stopped]);
  const pause = (ms: number) => untilStopped(new Promise<void>((ok) => setTimeout(ok, ms).unref()));

  async function report(command: ReceivedCommand, outcome: CommandOutcome): Promise<void> {
    const res = await desk.botApi('POST', `/commands/${command.id}/result`, { ...outcome, attempt: command.attempt });
    if (res.status !== 200) desk.log.warn({ command: command.id, status: res.status, body: (await res.text()).slice(0, 300) }, 'demo bot: a command report was refused');
  }

  const loop = (async () => {
    let delay = first;
    while (!controller.signal.aborted) {
      try {
        const res = await untilStopped(
          doFetch(`${options.apiBase}/api/bot/v1/commands?wait=${options.waitSeconds ?? 25}`, { headers: { authorization: `Bearer ${options.key}` }, signal: controller.signal }),
        );
        if (res.status === 200) {
          const { commands } = (await untilStopped(res.json())) as { commands: ReceivedCommand[] };
          delay = first;
          for (const command of commands) {
            const outcome = await untilStopped(desk.serial(() => execute(desk, command)));
            handled++;
            await untilStopped(report(command, outcome));
          }
          continue;
        }
        await untilStopped(res.text()).catch(() => undefined);
        const retryAfter = Number(res.headers.get('retry-after') ?? '0') * 1000;
        desk.log.warn({ status: res.status }, 'demo bot: the command poll was refused (polling again later)');
        await pause(Math.max(retryAfter, delay));
      } catch (error) {
        if (controller.signal.aborted) break;
        desk.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'demo bot: the command poll failed (polling again later)');
        await pause(delay).catch(() => undefined);
      }
      delay = Math.min(max, delay * 2);
    }
  })().catch(() => undefined);

  return {
    get handled() {
      return handled;
    },
    async stop() {
      controller.abort();
      await loop;
    },
  };
}
