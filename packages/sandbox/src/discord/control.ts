import type { FaultOptions, RouteMatcher, SandboxGrantInfo, SandboxMembership, SandboxMessageInfo, SandboxRequestRecord, SandboxTokenInfo } from './control-types';
import { MAX_SYNTHETIC_GUILDS } from './demo-data';
import type { SandboxEngine, SandboxTokenResponse } from './engine';
import { isEmptyMessage, validateMessage } from './message-validation';
import type { PermissionOverwrite } from './permissions';
import type { RateLimitSettings } from './rate-limit';
import { timestampOf } from './snowflake';
import type { GrantRecord, TokenRecord } from './store';
import { findUser, guildOf, SNOWFLAKE, syntheticGuildId } from './util';

export type { FaultOptions, RouteMatcher, SandboxGrantInfo, SandboxMembership, SandboxMessageInfo, SandboxRequestRecord, SandboxTokenInfo } from './control-types';


interface FaultRule {
  match: RouteMatcher;
  fault: FaultOptions;
  remaining: number;
}

interface LatencyRule {
  match: RouteMatcher;
  ms: number;
}

interface DelayRule {
  match: RouteMatcher;
  ms: number;
  remaining: number;
}

/** Internal view the plugin uses; not part of the public API. */
export interface ControlInternals {
  bind(engine: SandboxEngine): void;
  unbind(engine: SandboxEngine): void;
  takeFault(method: string, path: string): FaultOptions | null;
  latencyFor(method: string, path: string): number;
  /** delayNext's delay for this request (consumes one of its `times`), or 0. */
  takeDelay(method: string, path: string): number;
  record(request: SandboxRequestRecord): void;
  rateLimit(fallback: RateLimitSettings): RateLimitSettings;
  offsetMs(): number;
  /** setMembership's changes for a user: guild id → membership, or null (left the server). */
  membershipChanges(userId: string): ReadonlyMap<string, SandboxMembership | null> | undefined;
}

const MAX_REQUESTS = 1000;
const internals = new WeakMap<SandboxControl, ControlInternals>();

export function internalsOf(control: SandboxControl): ControlInternals {
  return internals.get(control)!;
}

export function matches(match: RouteMatcher, method: string, path: string): boolean {
  if (typeof match === 'function') return match({ method, path });
  if (match instanceof RegExp) {
    match.lastIndex = 0;
    return match.test(path);
  }
  let pattern = match.trim();
  if (pattern === '*') return true;
  const space = pattern.indexOf(' ');
  if (space > 0) {
    if (pattern.slice(0, space).toUpperCase() !== method.toUpperCase()) return false;
    pattern = pattern.slice(space + 1).trim();
  }
  if (pattern.endsWith('*')) return path.startsWith(pattern.slice(0, -1));
  return path === pattern;
}

function describe(match: RouteMatcher): string {
  return typeof match === 'function' ? `[function ${match.name || 'anonymous'}]` : String(match);
}

/**
 * Drives one sandbox registration from tests: inject faults and latency, tune the rate limit, move
 * time, and inspect the codes' grants and tokens and the requests received. Create it with
 * `createSandboxControl()` and pass it as the plugin option `control`; the same controls are mounted
 * over HTTP at `<prefix>/_control/...` (see the README in this package's index.ts).
 */
export class SandboxControl {
  #engine: SandboxEngine | null = null;
  #faults: FaultRule[] = [];
  #latency = 0;
  #latencyRules: LatencyRule[] = [];
  #delays: DelayRule[] = [];
  #rateLimit: RateLimitSettings | null = null;
  #offsetMs = 0;
  #requests: SandboxRequestRecord[] = [];
  #memberships = new Map<string, Map<string, SandboxMembership | null>>();
  #synthetic = 0;

  constructor() {
    internals.set(this, {
      bind: (engine) => {
        if (this.#engine && this.#engine !== engine) {
          throw new Error('This SandboxControl already drives another live sandbox registration: create one control per registration.');
        }
        this.#engine = engine;
      },
      unbind: (engine) => {
        if (this.#engine === engine) this.#engine = null;
      },
      takeFault: (method, path) => {
        const rule = this.#faults.find((f) => matches(f.match, method, path));
        if (!rule) return null;
        rule.remaining--;
        if (rule.remaining <= 0) this.#faults.splice(this.#faults.indexOf(rule), 1);
        return rule.fault;
      },
      latencyFor: (method, path) => {
        for (let i = this.#latencyRules.length - 1; i >= 0; i--) {
          const rule = this.#latencyRules[i]!;
          if (matches(rule.match, method, path)) return rule.ms;
        }
        return this.#latency;
      },
      takeDelay: (method, path) => {
        const rule = this.#delays.find((d) => matches(d.match, method, path));
        if (!rule) return 0;
        rule.remaining--;
        if (rule.remaining <= 0) this.#delays.splice(this.#delays.indexOf(rule), 1);
        return rule.ms;
      },
      record: (request) => {
        this.#requests.push(request);
        if (this.#requests.length > MAX_REQUESTS) this.#requests.splice(0, this.#requests.length - MAX_REQUESTS);
      },
      rateLimit: (fallback) => this.#rateLimit ?? fallback,
      offsetMs: () => this.#offsetMs,
      membershipChanges: (userId) => this.#memberships.get(userId),
    });
  }

  /** The next `times` (default 1) requests matching `match` are answered with `fault.status`. */
  failNext(match: RouteMatcher, fault: FaultOptions): this {
    if (!Number.isInteger(fault.status) || fault.status < 400 || fault.status > 599) {
      throw new RangeError(`failNext: status must be an HTTP error status (400-599), not ${fault.status}`);
    }
    const times = fault.times ?? 1;
    if (!(times >= 1)) throw new RangeError(`failNext: times must be >= 1, not ${times}`);
    if (fault.retryAfter !== undefined && !(fault.retryAfter >= 0 && Number.isFinite(fault.retryAfter))) {
      throw new RangeError(`failNext: retryAfter must be a number of seconds >= 0, not ${fault.retryAfter}`);
    }
    if (fault.delayMs !== undefined && !(fault.delayMs >= 0 && Number.isFinite(fault.delayMs))) {
      throw new RangeError(`failNext: delayMs must be a number of milliseconds >= 0, not ${fault.delayMs}`);
    }
    this.#faults.push({ match, fault: { ...fault }, remaining: times });
    return this;
  }

  /**
   * The next `times` (default 1) requests matching `match` wait `ms` real milliseconds (global
   * setTimeout: fake timers work), then are answered normally; on top of setLatency. Cleared by
   * clearFaults() and reset().
   */
  delayNext(match: RouteMatcher, options: { ms: number; times?: number }): this {
    if (!(options.ms >= 0 && Number.isFinite(options.ms))) throw new RangeError(`delayNext: ms must be >= 0, not ${options.ms}`);
    const times = options.times ?? 1;
    if (!(times >= 1)) throw new RangeError(`delayNext: times must be >= 1, not ${times}`);
    this.#delays.push({ match, ms: options.ms, remaining: times });
    return this;
  }

  /** Forgets the armed faults and delays (failNext, delayNext). */
  clearFaults(): this {
    this.#faults = [];
    this.#delays = [];
    return this;
  }

  /** Faults still armed: what they match, their status and how many requests they will still fail. */
  pendingFaults(): Array<{ match: string; status: number; remaining: number }> {
    return this.#faults.map((f) => ({ match: describe(f.match), status: f.fault.status, remaining: f.remaining }));
  }

  /** Delays still armed (delayNext). */
  pendingDelays(): Array<{ match: string; ms: number; remaining: number }> {
    return this.#delays.map((d) => ({ match: describe(d.match), ms: d.ms, remaining: d.remaining }));
  }

  /**
   * Delay (real milliseconds) before answering. Without `match`, for every request; with it, only for
   * matching requests (the latest matching rule wins). `setLatency(0)` clears the default only.
   */
  setLatency(ms: number, match?: RouteMatcher): this {
    if (!(ms >= 0 && Number.isFinite(ms))) throw new RangeError(`setLatency: ms must be >= 0, not ${ms}`);
    if (match === undefined) this.#latency = ms;
    else this.#latencyRules.push({ match, ms });
    return this;
  }

  /** Overrides the registration's rate limit (`null`: back to it); also empties every bucket. */
  setRateLimit(settings: Partial<RateLimitSettings> | null): this {
    if (settings === null) this.#rateLimit = null;
    else {
      const base = this.#engine?.options.rateLimit ?? { limit: 100, windowSeconds: 1 };
      const next = { limit: settings.limit ?? base.limit, windowSeconds: settings.windowSeconds ?? base.windowSeconds };
      if (!(Number.isInteger(next.limit) && next.limit >= 1)) throw new RangeError(`setRateLimit: limit must be an integer >= 1`);
      if (!(next.windowSeconds > 0 && Number.isFinite(next.windowSeconds))) throw new RangeError(`setRateLimit: windowSeconds must be > 0`);
      this.#rateLimit = next;
    }
    this.#engine?.limiter.clear();
    return this;
  }

  /** Moves the sandbox's clock forward (on top of the `clock` option): codes, tokens and buckets expire. */
  advanceTime(ms: number): this {
    if (!Number.isFinite(ms)) throw new RangeError(`advanceTime: ms must be a finite number`);
    this.#offsetMs += ms;
    return this;
  }

  /** The sandbox's current time (epoch ms). */
  now(): number {
    return this.#engine ? this.#engine.now() : Date.now() + this.#offsetMs;
  }

  /**
   * Back to the registration's settings: no faults, no latency, the configured rate limit with empty
   * buckets, no time offset, the bot in its demo guilds only (no synthetic ones), the demo users'
   * memberships as in demo-data, the request log emptied. Codes, grants and tokens are kept (sessions
   * stay valid); `clearGrants()` drops them.
   */
  reset(): this {
    this.#faults = [];
    this.#delays = [];
    this.#latency = 0;
    this.#latencyRules = [];
    this.#rateLimit = null;
    this.#offsetMs = 0;
    this.#requests = [];
    this.#memberships.clear();
    this.#synthetic = 0;
    this.#engine?.limiter.clear();
    this.#engine?.store.resetBotGuilds();
    this.#engine?.guilds.reset();
    return this;
  }

  /** The messages in the sandbox's channels (one channel's, or all), oldest first. */
  messages(channelId?: string): SandboxMessageInfo[] {
    const engine = this.#engine;
    if (!engine) return [];
    return engine.guilds.all(channelId).map((message) => ({
      id: message.id,
      channelId: message.channelId,
      guildId: message.guildId,
      authorId: message.authorId,
      content: message.content,
      embeds: structuredClone(message.embeds),
      components: structuredClone(message.components),
      flags: message.flags,
      createdAt: message.createdAt,
      editedAt: message.editedAt,
    }));
  }

  /**
   * Puts a message back into a demo channel with its own id, as the bot (or `authorId`) posted it: a
   * restarted demo does this for the panels its database says the bot posted, since the sandbox keeps
   * messages in memory only. The body is checked as the create route checks it (an invalid one
   * throws); the message's time is its id's. Returns false when a message with that id is there already.
   */
  restoreMessage(message: { id: string; channelId: string; body: unknown; authorId?: string; editedAt?: number | null }): boolean {
    const engine = this.#bound('restoreMessage');
    if (!SNOWFLAKE.test(message.id)) throw new TypeError('restoreMessage: id must be a snowflake');
    const found = SNOWFLAKE.test(message.channelId) ? engine.guilds.channel(message.channelId) : undefined;
    if (!found || found.channel.type === 4) throw new Error(`restoreMessage: ${message.channelId} is not a demo text channel`);
    const result = validateMessage(message.body, 'create');
    if (!result.ok) throw new Error(`restoreMessage: the body is not a valid message: ${JSON.stringify(result.body).slice(0, 300)}`);
    const validated = result.value;
    const draft = { content: validated.content ?? '', embeds: validated.embeds ?? [], components: validated.components ?? [] };
    if (isEmptyMessage(draft)) throw new Error('restoreMessage: the message is empty');
    return engine.guilds.restore({
      id: message.id,
      channelId: message.channelId,
      guildId: found.guildId,
      authorId: message.authorId ?? engine.options.clientId,
      ...draft,
      flags: validated.flags ?? 0,
      tts: false,
      nonce: null,
      createdAt: timestampOf(message.id),
      editedAt: message.editedAt ?? null,
    });
  }

  /**
   * Replaces a demo channel's permission overwrites (what GET /guilds/{id}/channels answers and what
   * the bot may do there), e.g. to deny the bot SEND_MESSAGES; `null` restores the demo data's. `reset()`
   * restores every channel's.
   */
  setChannelOverwrites(channelId: string, overwrites: PermissionOverwrite[] | null): this {
    if (overwrites !== null) {
      if (!Array.isArray(overwrites) || overwrites.length > 100) throw new TypeError('setChannelOverwrites: overwrites must be an array of at most 100');
      for (const permissionOverwrite of overwrites) {
        const ok =
          permissionOverwrite !== null &&
          typeof permissionOverwrite === 'object' &&
          typeof permissionOverwrite.id === 'string' &&
          SNOWFLAKE.test(permissionOverwrite.id) &&
          (permissionOverwrite.type === 0 || permissionOverwrite.type === 1) &&
          typeof permissionOverwrite.allow === 'string' &&
          /^\d{1,20}$/.test(permissionOverwrite.allow) &&
          typeof permissionOverwrite.deny === 'string' &&
          /^\d{1,20}$/.test(permissionOverwrite.deny);
        if (!ok) throw new TypeError('setChannelOverwrites: each overwrite is { id: snowflake, type: 0 | 1, allow: decimal string, deny: decimal string }');
      }
    }
    this.#bound('setChannelOverwrites').guilds.setOverwrites(channelId, overwrites);
    return this;
  }

  /** Forgets every code, grant and token (all tokens stop working). */
  clearGrants(): this {
    const engine = this.#engine;
    engine?.store.clear(engine.now());
    return this;
  }

  /** Every grant, oldest first, with its tokens. */
  grants(): SandboxGrantInfo[] {
    const engine = this.#engine;
    if (!engine) return [];
    const now = engine.now();
    return [...engine.store.grants.values()].map((g) => grantInfo(g, now));
  }

  /** Every token issued (access and refresh), oldest first, with whether it still works. */
  tokens(): SandboxTokenInfo[] {
    return this.grants().flatMap((g) => g.tokens);
  }

  isTokenActive(token: string): boolean {
    const engine = this.#engine;
    if (!engine) return false;
    const record = engine.store.findToken(token);
    return Boolean(record && engine.store.live(token, record.kind, engine.now()));
  }

  /**
   * Issues a grant for a demo user (id, key like `ava`, or username) without the browser flow, for the
   * registration's client: the token endpoint's answer.
   */
  issueTokens(user: string, options: { scope?: string | string[] } = {}): SandboxTokenResponse {
    return this.#bound('issueTokens').issueTokens(user, options.scope);
  }

  /** Ends every live grant of a user ("deauthorised the app"); returns how many ended. */
  revokeUser(user: string): number {
    return this.#bound('revokeUser').revokeUser(user);
  }

  /** Requests received (newest last, at most 1000), optionally only those matching. */
  requests(match?: RouteMatcher): SandboxRequestRecord[] {
    return match === undefined ? [...this.#requests] : this.#requests.filter((r) => matches(match, r.method, r.path));
  }

  clearRequests(): this {
    this.#requests = [];
    return this;
  }

  /** Adds the bot to a demo guild or removes it (what the bot's guild list and GET /guilds/{id} see). */
  setBotInGuild(guildId: string, present: boolean): this {
    const store = this.#bound('setBotInGuild').store;
    if (present) store.botGuilds.add(guildId);
    else store.botGuilds.delete(guildId);
    return this;
  }

  botGuildIds(): string[] {
    return this.#engine ? [...this.#engine.store.botGuilds].sort() : [];
  }

  /**
   * Puts the bot in `count` more synthetic servers (ids SYNTHETIC_GUILD_ID_BASE + n, ordered before the
   * demo servers), so its guild list spans many pages of 200: `addBotGuilds(10_050)` makes 51 pages with
   * the demo servers on the last. Returns the new ids. `reset()` takes them away.
   */
  addBotGuilds(count: number): string[] {
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`addBotGuilds: count must be an integer >= 1, not ${count}`);
    if (this.#synthetic + count > MAX_SYNTHETIC_GUILDS) {
      throw new RangeError(`addBotGuilds: at most ${MAX_SYNTHETIC_GUILDS} synthetic servers in all`);
    }
    const store = this.#bound('addBotGuilds').store;
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = syntheticGuildId(++this.#synthetic);
      store.botGuilds.add(id);
      ids.push(id);
    }
    return ids;
  }

  /**
   * Changes a demo user's membership of a server (demo or synthetic), as `GET /users/@me/guilds` with
   * their token reports it from then on: `{ owner, permissions }` sets it (joins the server if needed),
   * `null` removes it (the user left or was kicked). `reset()` restores demo-data's memberships.
   */
  setMembership(user: string, guildId: string, membership: SandboxMembership | null): this {
    const found = findUser(user);
    if (!found) throw new Error(`setMembership: "${user}" is not a demo user (id, key or username)`);
    if (!SNOWFLAKE.test(guildId) || !guildOf(guildId)) throw new Error(`setMembership: ${guildId} is not a demo or synthetic server`);
    if (membership !== null) {
      if (typeof membership.owner !== 'boolean') throw new TypeError('setMembership: owner must be a boolean');
      if (typeof membership.permissions !== 'string' || !/^\d{1,20}$/.test(membership.permissions)) {
        throw new TypeError('setMembership: permissions must be a decimal string, as Discord sends it');
      }
    }
    const changes = this.#memberships.get(found.id) ?? new Map<string, SandboxMembership | null>();
    this.#memberships.set(found.id, changes);
    changes.set(guildId, membership === null ? null : { owner: membership.owner, permissions: membership.permissions });
    return this;
  }

  /** A demo user's memberships as the sandbox answers them now (demo-data plus setMembership's changes). */
  memberships(user: string): Array<SandboxMembership & { guildId: string }> {
    const found = findUser(user);
    if (!found) throw new Error(`memberships: "${user}" is not a demo user (id, key or username)`);
    return effectiveMemberships(found.memberships, this.#memberships.get(found.id));
  }

  #bound(what: string): SandboxEngine {
    if (!this.#engine) throw new Error(`SandboxControl.${what}: the control is not attached to a registered sandbox yet (await app.ready()).`);
    return this.#engine;
  }
}

export function createSandboxControl(): SandboxControl {
  return new SandboxControl();
}

function tokenInfo(token: TokenRecord, grant: GrantRecord, now: number): SandboxTokenInfo {
  const active = grant.endedAt === null && token.endedAt === null && (token.expiresAt === null || token.expiresAt > now);
  return {
    token: token.token,
    kind: token.kind,
    grantId: grant.id,
    userId: grant.userId,
    clientId: grant.clientId,
    scopes: [...grant.scopes],
    issuedAt: token.issuedAt,
    expiresAt: token.expiresAt,
    endedAt: token.endedAt,
    endReason: token.endReason,
    active,
  };
}

function grantInfo(grant: GrantRecord, now: number): SandboxGrantInfo {
  return {
    id: grant.id,
    userId: grant.userId,
    clientId: grant.clientId,
    scopes: [...grant.scopes],
    via: grant.via,
    createdAt: grant.createdAt,
    endedAt: grant.endedAt,
    endReason: grant.endReason,
    tokens: grant.tokens.map((t) => tokenInfo(t, grant, now)),
  };
}

/** A user's memberships with setMembership's changes applied: changed ones in place, joined ones last. */
export function effectiveMemberships(
  base: ReadonlyArray<{ guildId: string; owner: boolean; permissions: string }>,
  changes: ReadonlyMap<string, SandboxMembership | null> | undefined,
): Array<SandboxMembership & { guildId: string }> {
  const list = base.map((m) => ({ guildId: m.guildId, owner: m.owner, permissions: m.permissions }));
  if (!changes) return list;
  const out: Array<SandboxMembership & { guildId: string }> = [];
  for (const member of list) {
    const change = changes.get(member.guildId);
    if (change === undefined) out.push(member);
    else if (change !== null) out.push({ guildId: member.guildId, ...change });
  }
  for (const [guildId, change] of changes) {
    if (change !== null && !list.some((m) => m.guildId === guildId)) out.push({ guildId, ...change });
  }
  return out;
}
