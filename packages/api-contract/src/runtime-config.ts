/**
 * `config.json` / `GET /config.json`: what the shell learns at run time (never a secret). The one
 * definition: the API answers it, the deploy script checks a static host's against it, and the shell
 * checks what it fetched with the same rules, written without zod (runtime-config-check.ts, held
 * equal to this by its test). Written with `zod/mini` (same checks, a fraction of the size).
 */
import * as z from 'zod/mini';
import { REMOTE_IDS } from './remote-ids.mjs';

/** One remote in `config.json`. */
export const RemoteEntry = z.object({
  manifest: z.string().check(z.minLength(1, 'must be the URL of its mf-manifest.json')),
  /** The deployed version (the content hash of its build), or null for an unversioned build. */
  version: z.nullable(z.string()),
  /** Its route table as its build emitted it (validated by composeRouteTables where it is used). */
  routes: z.unknown(),
});
export type RemoteEntry = z.infer<typeof RemoteEntry>;

const text = () => z.string().check(z.minLength(1, 'must be a non-empty string'));

export const RuntimeConfig = z.object({
  productName: text(),
  /** Origin of the API (calls go to `${apiOrigin}/api/...` with credentials). */
  apiOrigin: text(),
  /**
   * Each deployed remote: its `mf-manifest.json` URL, the version deployed and its route table (the
   * remote's `routes.json`; checked by `composeRouteTables`). A remote not listed is not deployed.
   */
  remotes: z.partialRecord(z.enum(REMOTE_IDS), RemoteEntry),
  /** The shell's deployed version (written by the deploy script), when known. */
  shell: z.optional(z.object({ version: z.string() })),
  docsUrl: text(),
  supportUrl: text(),
  inviteUrl: text(),
  discordClientId: text(),
  /** Origin (or base URL in demo mode) of Discord's web pages. */
  discordOrigin: text(),
  /** Paddle's public client-side token, or null when checkout is not configured. */
  paddleToken: z.nullable(z.string()),
  /** Paddle.js (Paddle's CDN, or the sandbox's stand-in in demo mode); null when checkout is not configured. */
  paddleScriptUrl: z.nullable(z.string()),
  /** Public token of the subscription-analytics script, or null. */
  analyticsToken: z.nullable(z.string()),
  /**
   * The subscription-analytics script (ProfitWell's `profitwell.js`, or the sandbox's stand-in in demo
   * mode); null without a token. Optional: a static host's config.json written before it existed
   * still passes (no analytics then).
   */
  analyticsScriptUrl: z.optional(z.nullable(z.string())),
  /** True when Discord is the built-in sandbox (demo users, no real accounts). */
  demo: z.boolean(),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;
