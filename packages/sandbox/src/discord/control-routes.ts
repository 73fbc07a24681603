import type { FastifyInstance, FastifyReply } from 'fastify';
import { openOrRefused } from '../demo-bot/blocklist';
import { FeedbackInputError } from '../demo-bot/feedback';
import { LiveDeskInputError, runningDesk } from '../demo-bot/live';
import { TagCommandError } from '../demo-bot/tags';
import { sha256 } from '../kit/crypto';
import type { FaultOptions, RouteMatcher, SandboxTokenInfo } from './control';
import type { SandboxEngine } from './engine';

class ControlInputError extends Error {}

type Json = Record<string, unknown>;

function objectBody(body: unknown): Json {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ControlInputError('The body must be a JSON object.');
  return body as Json;
}

function num(body: Json, key: string, required: boolean): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) {
    if (required) throw new ControlInputError(`"${key}" is required.`);
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ControlInputError(`"${key}" must be a number.`);
  return value;
}

function str(body: Json, key: string, required: boolean): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) {
    if (required) throw new ControlInputError(`"${key}" is required.`);
    return undefined;
  }
  if (typeof value !== 'string') throw new ControlInputError(`"${key}" must be a string.`);
  return value;
}

const MAX_MATCH = 512;

/**
 * `{ "match": "GET /api/v10/users/@me" }`: `*`, an exact path or a trailing-`*` prefix, optionally after
 * a method (see RouteMatcher). No regular expression is ever compiled from a request: `pattern` (the
 * old RegExp form) is refused; in-process callers can still pass RegExp objects to SandboxControl.
 */
function matcherOf(options: Json, fallback: RouteMatcher | undefined): RouteMatcher | undefined {
  if (options.pattern !== undefined) {
    throw new ControlInputError('"pattern" (a regular expression) is not accepted over HTTP: use "match" with an exact path or a trailing "*" prefix.');
  }
  const match = str(options, 'match', false);
  if (match !== undefined && match.length > MAX_MATCH) throw new ControlInputError(`"match" is too long (${MAX_MATCH} characters at most).`);
  return match ?? fallback;
}

/** Tokens are never sent over HTTP: a fingerprint (first 16 hex of SHA-256) stands in for them. */
function publicToken(info: SandboxTokenInfo) {
  const { token, ...rest } = info;
  return { ...rest, fingerprint: sha256(token).toString('hex').slice(0, 16) };
}

/**
 * The SandboxControl over HTTP, for end-to-end tests against a running server: `POST <prefix>/_control/<action>`
 * with a JSON body; answers JSON. Bad input answers 400 `{ error: 'invalid_request', message }`.
 */
export function controlRoutes(app: FastifyInstance, engine: SandboxEngine): void {
  const { control } = engine;

  const route = (name: string, handler: (body: Json) => unknown) => {
    app.post(`/_control/${name}`, async (req, reply: FastifyReply) => {
      reply.header('cache-control', 'no-store');
      try {
        return (await handler(objectBody(req.body))) ?? { ok: true };
      } catch (error) {
        if (error instanceof ControlInputError || error instanceof LiveDeskInputError || error instanceof TagCommandError || error instanceof FeedbackInputError || error instanceof RangeError || (error instanceof Error && /not a demo user|unknown scope/.test(error.message))) {
          return reply.code(400).send({ error: 'invalid_request', message: error.message });
        }
        throw error;
      }
    });
  };

  route('state', () => ({
    now: engine.now(),
    baseUrl: engine.options.baseUrl,
    clientId: engine.options.clientId,
    rateLimit: engine.rateLimit(),
    botGuildIds: control.botGuildIds(),
    pendingFaults: control.pendingFaults(),
    pendingDelays: control.pendingDelays(),
    messageRateLimit: engine.messageRateLimit(),
    // How much the store holds (bounded by maxCodes, maxGrants and the message caps).
    stored: { codes: engine.store.codes.size, grants: engine.store.grants.size, tokens: engine.store.tokens.size, messages: engine.guilds.size },
  }));

  route('fail', (options) => {
    const status = num(options, 'status', true)!;
    const rawTimes = options.times;
    let times: number | undefined;
    if (rawTimes === 'always') times = Number.POSITIVE_INFINITY;
    else times = num(options, 'times', false);
    const scope = str(options, 'scope', false);
    if (scope !== undefined && scope !== 'user' && scope !== 'global' && scope !== 'shared') {
      throw new ControlInputError('"scope" must be user, global or shared.');
    }
    const fault: FaultOptions = { status };
    const retryAfter = num(options, 'retryAfter', false);
    if (retryAfter !== undefined) fault.retryAfter = retryAfter;
    if (times !== undefined) fault.times = times;
    if (scope !== undefined) fault.scope = scope;
    if (options.body !== undefined) fault.body = options.body;
    const delayMs = num(options, 'delayMs', false);
    if (delayMs !== undefined) fault.delayMs = delayMs;
    const match = matcherOf(options, undefined);
    if (match === undefined) throw new ControlInputError('"match" is required (use "*" for every request).');
    control.failNext(match, fault);
    return { ok: true, pendingFaults: control.pendingFaults() };
  });

  route('clear-faults', () => {
    control.clearFaults();
  });

  route('delay', (options) => {
    const ms = num(options, 'ms', true)!;
    const rawTimes = options.times;
    const times = rawTimes === 'always' ? Number.POSITIVE_INFINITY : num(options, 'times', false);
    const match = matcherOf(options, undefined);
    if (match === undefined) throw new ControlInputError('"match" is required (use "*" for every request).');
    control.delayNext(match, { ms, ...(times !== undefined ? { times } : {}) });
    return { ok: true, pendingDelays: control.pendingDelays() };
  });

  route('messages', (options) => {
    const channelId = str(options, 'channelId', false);
    return { messages: control.messages(channelId) };
  });

  route('channel-overwrites', (options) => {
    const channelId = str(options, 'channelId', true)!;
    const overwrites = options.overwrites;
    if (overwrites !== null && !Array.isArray(overwrites)) throw new ControlInputError('"overwrites" must be an array, or null to restore the demo data\'s.');
    try {
      control.setChannelOverwrites(channelId, overwrites as Parameters<typeof control.setChannelOverwrites>[1]);
    } catch (error) {
      throw new ControlInputError(error instanceof Error ? error.message : String(error));
    }
  });

  route('latency', (options) => {
    const ms = num(options, 'ms', true)!;
    control.setLatency(ms, matcherOf(options, undefined));
  });

  route('rate-limit', (options) => {
    if (options.reset === true) control.setRateLimit(null);
    else {
      const limit = num(options, 'limit', false);
      const windowSeconds = num(options, 'windowSeconds', false);
      control.setRateLimit({ ...(limit !== undefined ? { limit } : {}), ...(windowSeconds !== undefined ? { windowSeconds } : {}) });
    }
    return { ok: true, rateLimit: engine.rateLimit() };
  });

  route('time', (options) => {
    control.advanceTime(num(options, 'advanceMs', true)!);
    return { ok: true, now: engine.now() };
  });

  route('reset', (options) => {
    control.reset();
    if (options.grants === true) control.clearGrants();
  });

  route('grants', (options) => {
    const userId = str(options, 'userId', false);
    const grants = control.grants().filter((g) => userId === undefined || g.userId === userId);
    return { grants: grants.map((g) => ({ ...g, tokens: g.tokens.map(publicToken) })) };
  });

  route('requests', (options) => ({ requests: control.requests(matcherOf(options, undefined)) }));

  route('clear-requests', () => {
    control.clearRequests();
  });

  route('issue-token', (options) => {
    const user = str(options, 'user', true)!;
    const scope = str(options, 'scope', false);
    return control.issueTokens(user, scope === undefined ? {} : { scope });
  });

  route('revoke-user', (options) => ({ ok: true, revoked: control.revokeUser(str(options, 'user', true)!) }));

  // The demo bot's desk (docs/sandbox.md, "The demo bot's desk"): make things happen now.
  const desk = () => {
    const found = runningDesk();
    if (!found) throw new ControlInputError("The demo bot's desk is not running (DEMO_BOT=off, or it has not started yet).");
    return found;
  };
  route('demo-bot/tickets', () => ({ tickets: desk().tickets() }));
  // A blocked member is refused (200, `ticket` null, `refused`: the entry and the bot's ephemeral reply).
  route('demo-bot/open-ticket', (options) => openOrRefused(desk(), str(options, 'serverId', false), str(options, 'userId', false)));
  route('demo-bot/refusals', () => ({ refusals: desk().refusals() }));
  route('demo-bot/member-writes', async (options) => ({ ticket: await desk().memberWrites(str(options, 'ticketId', false)) }));
  route('demo-bot/staff-writes', async (options) => ({ ticket: await desk().staffWrites(str(options, 'ticketId', true)!, str(options, 'content', true)!, str(options, 'staffId', false)) }));
  // Auto-close (docs/sandbox.md, "Auto-close"): Keep open, the opener leaving, and the demo's clock.
  route('demo-bot/keep-open', async (options) => ({ ticket: await desk().keepOpen(str(options, 'ticketId', true)!) }));
  route('demo-bot/member-leaves', async (options) => ({ ticket: await desk().openerLeaves(str(options, 'ticketId', true)!) }));
  route('demo-bot/clock', (options) => ({ hourMs: desk().hourMs(num(options, 'hourMs', false)) }));
  route('demo-bot/feedback', () => ({ questions: desk().feedback() }));
  route('demo-bot/rate', async (options) => ({
    question: await desk().rate(str(options, 'serverId', true)!, str(options, 'ticketId', true)!, num(options, 'rating', true)!, str(options, 'comment', false) ?? null),
  }));

  route('bot-guild', (options) => {
    const guildId = str(options, 'guildId', true)!;
    if (typeof options.present !== 'boolean') throw new ControlInputError('"present" must be true or false.');
    control.setBotInGuild(guildId, options.present);
    return { ok: true, botGuildIds: control.botGuildIds() };
  });
}
