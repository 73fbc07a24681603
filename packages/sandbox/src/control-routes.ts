import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FaultOptions, RouteMatcher, SandboxTokenInfo } from './control';
import type { SandboxEngine } from './engine';
import { sha256 } from './util';

class ControlInputError extends Error {}

type Json = Record<string, unknown>;

function objectBody(body: unknown): Json {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ControlInputError('The body must be a JSON object.');
  return body as Json;
}

function num(o: Json, key: string, required: boolean): number | undefined {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) throw new ControlInputError(`"${key}" is required.`);
    return undefined;
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ControlInputError(`"${key}" must be a number.`);
  return v;
}

function str(o: Json, key: string, required: boolean): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) throw new ControlInputError(`"${key}" is required.`);
    return undefined;
  }
  if (typeof v !== 'string') throw new ControlInputError(`"${key}" must be a string.`);
  return v;
}

const MAX_MATCH = 512;

/**
 * `{ "match": "GET /api/v10/users/@me" }`: `*`, an exact path or a trailing-`*` prefix, optionally after
 * a method (see RouteMatcher). No regular expression is ever compiled from a request: `pattern` (the
 * old RegExp form) is refused; in-process callers can still pass RegExp objects to SandboxControl.
 */
function matcherOf(o: Json, fallback: RouteMatcher | undefined): RouteMatcher | undefined {
  if (o.pattern !== undefined) {
    throw new ControlInputError('"pattern" (a regular expression) is not accepted over HTTP: use "match" with an exact path or a trailing "*" prefix.');
  }
  const match = str(o, 'match', false);
  if (match !== undefined && match.length > MAX_MATCH) throw new ControlInputError(`"match" is too long (${MAX_MATCH} characters at most).`);
  return match ?? fallback;
}

/** Tokens are never sent over HTTP: a fingerprint (first 16 hex of SHA-256) stands in for them. */
function publicToken(t: SandboxTokenInfo) {
  const { token, ...rest } = t;
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
        if (error instanceof ControlInputError || error instanceof RangeError || (error instanceof Error && /not a demo user|unknown scope/.test(error.message))) {
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
    // How much the store holds (bounded by maxCodes and maxGrants).
    stored: { codes: engine.store.codes.size, grants: engine.store.grants.size, tokens: engine.store.tokens.size },
  }));

  route('fail', (o) => {
    const status = num(o, 'status', true)!;
    const rawTimes = o.times;
    let times: number | undefined;
    if (rawTimes === 'always') times = Number.POSITIVE_INFINITY;
    else times = num(o, 'times', false);
    const scope = str(o, 'scope', false);
    if (scope !== undefined && scope !== 'user' && scope !== 'global' && scope !== 'shared') {
      throw new ControlInputError('"scope" must be user, global or shared.');
    }
    const fault: FaultOptions = { status };
    const retryAfter = num(o, 'retryAfter', false);
    if (retryAfter !== undefined) fault.retryAfter = retryAfter;
    if (times !== undefined) fault.times = times;
    if (scope !== undefined) fault.scope = scope;
    if (o.body !== undefined) fault.body = o.body;
    const match = matcherOf(o, undefined);
    if (match === undefined) throw new ControlInputError('"match" is required (use "*" for every request).');
    control.failNext(match, fault);
    return { ok: true, pendingFaults: control.pendingFaults() };
  });

  route('clear-faults', () => {
    control.clearFaults();
  });

  route('latency', (o) => {
    const ms = num(o, 'ms', true)!;
    control.setLatency(ms, matcherOf(o, undefined));
  });

  route('rate-limit', (o) => {
    if (o.reset === true) control.setRateLimit(null);
    else {
      const limit = num(o, 'limit', false);
      const windowSeconds = num(o, 'windowSeconds', false);
      control.setRateLimit({ ...(limit !== undefined ? { limit } : {}), ...(windowSeconds !== undefined ? { windowSeconds } : {}) });
    }
    return { ok: true, rateLimit: engine.rateLimit() };
  });

  route('time', (o) => {
    control.advanceTime(num(o, 'advanceMs', true)!);
    return { ok: true, now: engine.now() };
  });

  route('reset', (o) => {
    control.reset();
    if (o.grants === true) control.clearGrants();
  });

  route('grants', (o) => {
    const userId = str(o, 'userId', false);
    const grants = control.grants().filter((g) => userId === undefined || g.userId === userId);
    return { grants: grants.map((g) => ({ ...g, tokens: g.tokens.map(publicToken) })) };
  });

  route('requests', (o) => ({ requests: control.requests(matcherOf(o, undefined)) }));

  route('clear-requests', () => {
    control.clearRequests();
  });

  route('issue-token', (o) => {
    const user = str(o, 'user', true)!;
    const scope = str(o, 'scope', false);
    return control.issueTokens(user, scope === undefined ? {} : { scope });
  });

  route('revoke-user', (o) => ({ ok: true, revoked: control.revokeUser(str(o, 'user', true)!) }));

  route('bot-guild', (o) => {
    const guildId = str(o, 'guildId', true)!;
    if (typeof o.present !== 'boolean') throw new ControlInputError('"present" must be true or false.');
    control.setBotInGuild(guildId, o.present);
    return { ok: true, botGuildIds: control.botGuildIds() };
  });
}
