/**
 * @tickety/sandbox: a local stand-in for Discord (OAuth2 consent screen, token/revoke, users/@me,
 * users/@me/guilds, guilds/{id} with its channels, roles, emojis and members, channel messages with
 * Discord's limits and permission checks, rate-limit headers and buckets, CDN, and pages showing the
 * channels as Discord would), for demo mode and tests. Production never mounts it. Options, the
 * SandboxControl API and the HTTP controls are described in ../README.md.
 *
 *   const control = createSandboxControl();
 *   await app.register(discordSandbox, { prefix: '/sandbox/discord', control });
 *   control.failNext('GET /api/v10/users/@me/guilds', { status: 503, retryAfter: 2 });
 */

export * from './analytics';
export { ATTACHMENT_LINK_TTL_MS, attachmentSignature, DEMO_LEGACY_TRANSCRIPTS, LEGACY_ISSUED_MS, legacyTranscriptPath, signAttachment } from './attachments';
export * from './chargebee';
export {
  createSandboxControl,
  type FaultOptions,
  type RouteMatcher,
  SandboxControl,
  type SandboxGrantInfo,
  type SandboxMessageInfo,
  type SandboxRequestRecord,
  type SandboxTokenInfo,
} from './control';
export { DEMO_BOT_API_KEY, type DemoBot, type DemoBotOptions, demoServer, demoTranscript, dueEvents, history, type SeedReport, startDemoBot } from './demo-bot';
export * from './demo-data';
export type { SandboxTokenResponse } from './engine';
export * from './fastspring';
export { charCount, MESSAGE_LIMITS } from './message-validation';
export * from './monetization';
export * from './paddle';
export * from './permissions';
export { type DiscordSandboxOptions, discordSandbox } from './plugin';
export type { RateLimitSettings } from './rate-limit';
export type { EndReason } from './store';
export { flag as xssFlag, V2_PLACES, type V2Place, v2VectorCount, vectors as xssVectors, type XssVector, xssTranscript } from './xss-vectors';
