/**
 * The demo bot's Discord client: Discord's REST API (the sandbox's stand-in in demo mode) with the
 * bot token, waiting out 429s as Discord asks, and the sandbox's world route for the demo's members
 * (what they would type in Discord's client).
 */

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** A refusal from Discord: the HTTP status and Discord's JSON error code (0 when it gave none). */
export class DiscordError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** What a bot reports for a Discord refusal (the bot API's `CommandFailure`, docs/api.md "Bot commands"). */
export function failureOf(error: unknown): { reason: 'missing_permission' | 'channel_gone' | 'member_gone' | 'rate_limited' | 'other'; message: string } {
  if (!(error instanceof DiscordError)) return { reason: 'other', message: (error instanceof Error ? error.message : String(error)).slice(0, 500) };
  const message = `${error.status} ${error.code}: ${error.message}`.slice(0, 500);
  if (error.code === 10003) return { reason: 'channel_gone', message };
  if (error.code === 10007 || error.code === 10013) return { reason: 'member_gone', message };
  if (error.code === 50001 || error.code === 50013) return { reason: 'missing_permission', message };
  if (error.status === 429) return { reason: 'rate_limited', message };
  return { reason: 'other', message };
}

export interface DiscordMessage {
  id: string;
  channel_id: string;
  content: string;
  embeds: Array<Record<string, unknown>>;
  timestamp: string;
  edited_timestamp: string | null;
  author: { id: string; username: string; global_name?: string | null; avatar: string | null; bot?: boolean };
  attachments?: Array<{ id: string; filename: string; size: number; url: string; content_type?: string; width?: number; height?: number }>;
}

export interface DiscordChannel {
  id: string;
  name: string;
  parent_id: string | null;
  topic?: string | null;
}

export class DiscordClient {
  constructor(
    /** Discord's REST base (`.../api/v10`). */
    private readonly apiBase: string,
    /** The sandbox's mount (`.../sandbox/discord`), for the world route. */
    private readonly sandboxBase: string,
    private readonly token: string,
    private readonly doFetch: FetchLike,
  ) {}

  /** A REST call; a FormData body goes as `multipart/form-data` (an upload), anything else as JSON. */
  async call<T>(method: string, path: string, body?: unknown, base = this.apiBase): Promise<T> {
    const form = body instanceof FormData;
    for (let attempt = 0; ; attempt++) {
      const res = await this.doFetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bot ${this.token}`, ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: form ? body : JSON.stringify(body) } : {}),
      });
      if (res.status === 204) return undefined as T;
      const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (res.ok) return answer as T;
      if (res.status === 429 && attempt < 3) {
        const wait = typeof answer.retry_after === 'number' ? answer.retry_after : Number(res.headers.get('retry-after') ?? '1');
        await new Promise((ok) => setTimeout(ok, Math.min(10_000, Math.max(50, wait * 1000))));
        continue;
      }
      throw new DiscordError(res.status, typeof answer.code === 'number' ? answer.code : 0, typeof answer.message === 'string' ? answer.message : `HTTP ${res.status}`);
    }
  }

  /** A member's message in a channel (the sandbox's world route: no bot can do this on Discord). */
  memberWrites(channelId: string, author: { id: string; username: string; global_name: string | null }, content: string): Promise<DiscordMessage> {
    return this.call('POST', `/_world/channels/${channelId}/messages`, { author, content }, this.sandboxBase);
  }
}
