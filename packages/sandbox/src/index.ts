/**
 * @tickety/sandbox: a local stand-in for Discord (OAuth2 consent screen, token/revoke, users/@me,
 * users/@me/guilds, guilds/{id} with its channels, roles, emojis and members, channel messages with
 * Discord's limits and permission checks, rate-limit headers and buckets, CDN, and pages showing the
 * channels as Discord would), plus the payment and analytics stand-ins, for demo mode and tests.
 * Production never mounts it. The tree and usage: docs/sandbox.md; options: ../README.md.
 */

export { DEMO_BOT_API_KEY, type DemoBot, type DemoBotOptions, demoServer, demoTranscript, dueEvents, history, type SeedReport, startDemoBot } from './demo-bot';
export { ATTACHMENT_LINK_TTL_MS, attachmentSignature, DEMO_LEGACY_TRANSCRIPTS, LEGACY_ISSUED_MS, legacyTranscriptPath, signAttachment } from './discord/attachments';
export {
  createSandboxControl,
  type FaultOptions,
  type RouteMatcher,
  SandboxControl,
  type SandboxGrantInfo,
  type SandboxMessageInfo,
  type SandboxRequestRecord,
  type SandboxTokenInfo,
} from './discord/control';
export * from './discord/demo-data';
export type { SandboxTokenResponse } from './discord/engine';
export { charCount, MESSAGE_LIMITS } from './discord/message-validation';
export * from './discord/monetization';
export * from './discord/permissions';
export { type DiscordSandboxOptions, discordSandbox } from './discord/plugin';
export type { RateLimitSettings } from './discord/rate-limit';
export type { EndReason } from './discord/store';
export { flag as xssFlag, V2_PLACES, type V2Place, v2VectorCount, vectors as xssVectors, type XssVector, xssTranscript } from './discord/xss-vectors';
export * from './providers/analytics';
export * from './providers/chargebee';
export * from './providers/fastspring';
export * from './providers/paddle';
export * from './providers/s3';
