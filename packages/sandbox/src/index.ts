/**
 * @tickety/sandbox: a local stand-in for Discord (OAuth2 consent screen, token/revoke, users/@me,
 * users/@me/guilds, guilds/{id}, rate-limit headers, CDN), for demo mode and tests. Production never
 * mounts it. Options, the SandboxControl API and the HTTP controls are described in ../README.md.
 *
 *   const control = createSandboxControl();
 *   await app.register(discordSandbox, { prefix: '/sandbox/discord', control });
 *   control.failNext('GET /api/v10/users/@me/guilds', { status: 503, retryAfter: 2 });
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
