/**
 * @tickety/sandbox: a local stand-in for Discord (OAuth2 consent screen, token/revoke, users/@me,
 * users/@me/guilds, guilds/{id}, rate-limit headers, CDN), for demo mode and tests. Production never
 * mounts it.
 *
 * Mounting (keep it encapsulated, always with a prefix):
 *   await app.register(discordSandbox, { prefix: '/sandbox/discord', baseUrl, clientId, clientSecret, botToken, control });
 *
 * Driving it from tests, in process:
 *   const control = createSandboxControl();                 // pass as option `control`
 *   control.failNext('GET /api/v10/users/@me/guilds', { status: 503, retryAfter: 2 });
 *   control.failNext('/api/v10/oauth2/token', { status: 429, retryAfter: 1.5, scope: 'global' });
 *   control.setLatency(200);  control.setLatency(50, '/cdn/*');
 *   control.setRateLimit({ limit: 2, windowSeconds: 10 });
 *   control.advanceTime(8 * 24 * 3600 * 1000);              // on top of the `clock` option
 *   control.tokens(); control.grants(); control.isTokenActive(token); control.requests('/api/v10/*');
 *   control.issueTokens('ava'); control.revokeUser('ava'); control.setBotInGuild(id, true);
 *   control.reset();                                        // faults, latency, limits, time, bot guilds, log
 *
 * Over HTTP (end-to-end tests): `POST <prefix>/_control/<action>` with a JSON body:
 *   state {} · fail {match|pattern, status, retryAfter?, times? (number|"always"), scope?, body?} · clear-faults {}
 *   latency {ms, match?|pattern?} · rate-limit {limit?, windowSeconds?} | {reset:true} · time {advanceMs}
 *   reset {grants?: true} · grants {userId?} (tokens as fingerprints) · requests {match?|pattern?} · clear-requests {}
 *   issue-token {user, scope?} · revoke-user {user} · bot-guild {guildId, present}
 * Disable these routes with `controlRoutes: false`.
 */
export * from './demo-data';
export {
  createSandboxControl,
  type FaultOptions,
  type RouteMatcher,
  SandboxControl,
  type SandboxGrantInfo,
  type SandboxRequestRecord,
  type SandboxTokenInfo,
} from './control';
export type { SandboxTokenResponse } from './engine';
export { type DiscordSandboxOptions, discordSandbox } from './plugin';
export type { RateLimitSettings } from './rate-limit';
export type { EndReason } from './store';
