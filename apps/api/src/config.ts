import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOT_KEY_OVERLAP_DEFAULT_S, BOT_KEY_PATTERN, isSnowflake, type Plan, PlanCatalogue, REMOTE_IDS, type RemoteId } from '@tickety/api-contract';
import { z } from 'zod';
import { deriveKey } from './lib/crypto';
import type { S3Settings } from './lib/blob-store/s3';
import { DEFAULT_GRACE_DAYS } from './services/premium';

/**
 * Configuration from the environment, validated once at start (fail fast with a clear message).
 * Every variable is documented in docs/operations.md.
 */

/**
 * The API's folder (holding migrations/ and config/), resolved from this file (src/config.ts or the
 * bundled dist/server.js), whatever the folder is called once deployed; `apps/` and the repository
 * above it.
 */
export const API_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const APPS_DIR = resolve(API_DIR, '..');
export const REPO_DIR = resolve(APPS_DIR, '..');


export interface AppConfig {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  /** The API's public origin, no trailing slash (e.g. https://api.tickety.gg). */
  publicUrl: string;
  allInOne: boolean;
  /**
   * The site folder `scripts/deploy.mjs` writes (config.json, index.html, assets/, remotes/<name>/<version>/):
   * served at `/` in all-in-one mode; its config.json gives `GET /config.json` its remotes in any mode.
   */
  staticRoot: string;
  /** Exact origins allowed for credentialed CORS and mutations; the first is where the sign-in popup reports. */
  dashboardOrigins: string[];
  productName: string;
  docsUrl: string;
  supportUrl: string;
  inviteUrl: string;
  /** REMOTE_<NAME>_URL overrides (development): a remote's manifest URL, its routes.json read beside it. */
  remotes: Partial<Record<RemoteId, string>>;
  paddleToken: string | null;
  analyticsToken: string | null;
  /** Where the browser loads the subscription-analytics script (ProfitWell's) from (null without a token). */
  analyticsScriptUrl: string | null;
  /** Where the browser loads Paddle.js from (null without a client token). */
  paddleScriptUrl: string | null;
  /** Discord is the built-in sandbox (no DISCORD_CLIENT_ID). */
  demo: boolean;
  /** Demo mode: the sandbox's test controls over HTTP (`/sandbox/discord/_control/...`). */
  sandboxControl: boolean;
  discord: {
    clientId: string;
    clientSecret: string;
    botToken: string | null;
    /** Where the browser goes to authorise (`<origin>/oauth2/authorize`). */
    origin: string;
    /** REST base (`.../api/v10`). */
    apiBase: string;
    /** CDN base (`https://cdn.discordapp.com`). */
    cdnBase: string;
    timeoutMs: number;
    /** Overall limit for reading the bot's whole guild list (all pages). */
    botGuildsDeadlineMs: number;
  };
  tokenEncryptionKey: Buffer;
  /** Earlier token-encryption keys, still accepted for decryption (key rotation); never used to encrypt. */
  previousTokenEncryptionKeys: Buffer[];
  /**
   * The keys of exported configuration files (HMAC-SHA256): the first signs new exports, every one
   * verifies imports (key rotation). CONFIG_FILE_KEYS, then keys derived from the token-encryption
   * keys (verify only); `derived`: CONFIG_FILE_KEYS is unset, the current token key's derived key signs.
   */
  configFiles: { keys: ConfigFileKey[]; derived: boolean };
  database: {
    url: string | null;
    schema: string | null;
    dataDir: string;
    poolMax: number;
    /** Longest a statement may run (PostgreSQL: server-side statement_timeout plus a client-side read timeout). */
    statementTimeoutMs: number;
    /** Database calls waiting or running at once beyond which new ones fail fast (503) instead of piling up. */
    queueMax: number;
    /** PostgreSQL: queries are not prepared as named statements (behind a proxy that pools by transaction). */
    unnamedStatements: boolean;
  };
  /** The Redis pub/sub channel of the session cache's invalidations: the same for every instance of one deployment. */
  cacheChannel: string;
  redisUrl: string | null;
  /** Longest a Redis call may take before the rate limits count in memory instead. */
  redisTimeoutMs: number;
  session: {
    idleSeconds: number;
    maxAgeSeconds: number;
    /** Active sessions per user; signing in once more revokes the oldest beyond this. */
    maxPerUser: number;
    /** Staff routes and staff reads need a session with staff activity this recent (else 401 code 1030). */
    staffIdleSeconds: number;
    /** …and signed in this recently. */
    staffMaxAgeSeconds: number;
    /** How long an instance keeps a session and its user's state without reading them again (0: never keeps them). */
    cacheSeconds: number;
    /** Sessions kept in memory at most; user states at most a tenth of that (they are larger). */
    cacheMax: number;
  };
  /**
   * How old the stored guild list may be when it decides access to a server: reads, and writes
   * (shorter). Older lists are fetched again from Discord with the user's token first.
   */
  guildAccess: { readMaxAgeSeconds: number; writeMaxAgeSeconds: number };
  /** Node's HTTP server limits (see docs/operations.md). */
  http: {
    /** Time to receive a whole request, headers and body. */
    requestTimeoutMs: number;
    /** Time to receive the headers. */
    headersTimeoutMs: number;
    /** An idle socket (nothing sent or received) is closed after this. */
    connectionTimeoutMs: number;
    /** An idle keep-alive connection is kept this long between requests. */
    keepAliveTimeoutMs: number;
    /** Requests served on one keep-alive connection before it is closed. */
    maxRequestsPerSocket: number;
  };
  /** Load shedding: past these, requests answer 503 (code 1011) until the process recovers. 0 turns a check off. */
  pressure: { maxEventLoopDelayMs: number; maxHeapUsedBytes: number; maxRssBytes: number; maxEventLoopUtilization: number };
  /** Cookies get `Secure` (and the `__Host-` prefix) unless the API is plain-http localhost. */
  secureCookies: boolean;
  staffOwnerIds: string[];
  plans: Plan[];
  /** Per-IP limits per window: /api, the sign-in routes, and (demo mode) /sandbox. */
  rateLimit: {
    max: number;
    authMax: number;
    sandboxMax: number;
    botMax: number;
    /** Live Tickets streams one user may hold open on one instance (TICKET_STREAMS_PER_USER). */
    ticketStreamsPerUser: number;
    botKeyFailuresMax: number;
    webhookMax: number;
    /** Per session and minute: billing routes that call a payment provider's API (where a checkout stands: three times as many). */
    providerMax: number;
    /** Per session and minute, each: support search, its cards, and the staff audit. */
    staffMax: number;
    windowMs: number;
  };
  /**
   * The bot API: the key configuration gives (BOT_API_KEY; in demo mode the demo bot's), stored hashed
   * at start for the Discord application; and how long a rotated key keeps working.
   */
  bot: { apiKey: string | null; keyOverlapSeconds: number };
  /**
   * Billing: premium kept after a failed payment (days); the webhook inbox's worker (how often it
   * looks for due events; 0: never on its own, tests drive it); each provider's webhook secrets.
   */
  billing: {
    graceDays: number;
    workIntervalMs: number;
    /** Paddle: every notification-destination secret accepted (rotation), and the signature's allowed age. */
    paddle: { webhookSecrets: string[]; toleranceSeconds: number; apiKey: string | null; apiBase: string };
    /**
     * FastSpring: the API user (HTTP basic; null: not configured), its origin, every webhook HMAC secret
     * accepted, the popup storefront with the Store Builder Library's address (sent to the browser
     * only with a checkout), and the store's RSA private key that encrypts checkouts' secure payloads
     * (null: FastSpring is not offered; demo mode: a key made at start, whose public key the stand-in has).
     */
    fastspring: {
      apiUsername: string | null;
      apiPassword: string | null;
      apiBase: string;
      webhookSecrets: string[];
      storefront: string | null;
      scriptUrl: string;
      securePayloadKey: KeyObject | null;
    };
    /** Chargebee: the site, its API key (null: not configured) and API address, and every accepted webhook `user:password`. */
    chargebee: { site: string | null; apiKey: string | null; apiBase: string; webhookCredentials: string[] };
    /**
     * Discord app subscriptions: the application's public keys (Webhook Events, Ed25519; several while
     * one rotates) and the signature's allowed age. SKUs and entitlements are read with the bot token.
     */
    discord: { publicKeys: string[]; toleranceSeconds: number };
    /** How long a premium slot stays on a server before it may move to another. */
    slotCooldownHours: number;
    /** How often each instance re-reads the providers' subscriptions to heal lost webhooks (0: never on its own). */
    reconcileIntervalMs: number;
  };
  /**
   * Where transcripts and their attachments keep their bytes (src/lib/blob-store): the database (the
   * default), or an S3-compatible bucket. The secret access key is only ever given to the S3 client.
   */
  blobStore: { kind: 'database' } | ({ kind: 's3' } & S3Settings);
  trustProxy: boolean | string;
  logLevel: string;
}

/** A configuration-file signing key: its public id (written into every file it signs) and its secret. */
export interface ConfigFileKey {
  id: string;
  secret: Buffer;
}

/** The product's Discord support server (an invite link); set SUPPORT_URL for another brand. */
const DEFAULT_SUPPORT_URL = 'https://discord.gg/tickety';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const bool = z
  .string()
  .optional()
  .transform((v) => v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase()));
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const url = (name: string) =>
  optionalString.refine((v) => v === undefined || /^https?:\/\/[^\s/]+/.test(v), `${name} must be an http(s) URL`);
const int = (min: number, max: number) =>
  optionalString.transform((value, ctx): number | undefined => {
    if (value === undefined) return undefined;
    const number = Number(value);
    if (!Number.isInteger(number) || number < min || number > max) {
      ctx.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
      return z.NEVER;
    }
    return number;
  });
const snowflakeList = optionalString.refine(
  (v) => v === undefined || v.split(',').every((id) => isSnowflake(id.trim())),
  'must be a comma-separated list of Discord user ids',
);

/** REMOTE_<NAME>_URL of a remote (one per remote of the contract's list). */
type RemoteUrlVariable = `REMOTE_${Uppercase<RemoteId>}_URL`;
const remoteUrlVariable = (id: RemoteId) => `REMOTE_${id.toUpperCase()}_URL` as RemoteUrlVariable;
function remoteUrlVariables(): Record<RemoteUrlVariable, ReturnType<typeof url>> {
  return Object.fromEntries(REMOTE_IDS.map((id) => [remoteUrlVariable(id), url(remoteUrlVariable(id))])) as Record<RemoteUrlVariable, ReturnType<typeof url>>;
}

const EnvSchema = z.object({
  NODE_ENV: optionalString,
  PORT: int(0, 65535),
  HOST: optionalString,
  PUBLIC_URL: url('PUBLIC_URL'),
  ALL_IN_ONE: bool,
  SANDBOX_CONTROL: optionalString.refine(
    (v) => v === undefined || ['1', 'true', 'yes', 'on', '0', 'false', 'no', 'off'].includes(v.toLowerCase()),
    'must be 1/true/yes/on or 0/false/no/off',
  ),
  STATIC_ROOT: optionalString,
  DASHBOARD_ORIGINS: optionalString,
  PRODUCT_NAME: optionalString,
  DOCS_URL: url('DOCS_URL'),
  SUPPORT_URL: url('SUPPORT_URL'),
  INVITE_URL: url('INVITE_URL'),
  ...remoteUrlVariables(),
  PADDLE_CLIENT_TOKEN: optionalString,
  ANALYTICS_TOKEN: optionalString,
  ANALYTICS_SCRIPT_URL: url('ANALYTICS_SCRIPT_URL'),
  DISCORD_CLIENT_ID: optionalString.refine((v) => v === undefined || isSnowflake(v), 'must be a Discord application id'),
  DISCORD_CLIENT_SECRET: optionalString,
  DISCORD_BOT_TOKEN: optionalString,
  DISCORD_ORIGIN: url('DISCORD_ORIGIN'),
  DISCORD_API_URL: url('DISCORD_API_URL'),
  DISCORD_CDN_URL: url('DISCORD_CDN_URL'),
  DISCORD_TIMEOUT_MS: int(100, 120_000),
  TOKEN_ENCRYPTION_KEY: optionalString,
  TOKEN_ENCRYPTION_PREVIOUS_KEYS: optionalString,
  CONFIG_FILE_KEYS: optionalString,
  DATABASE_URL: optionalString.refine((v) => v === undefined || /^postgres(ql)?:\/\//.test(v), 'must be a postgres:// URL'),
  DATABASE_SCHEMA: optionalString.refine((v) => v === undefined || /^[a-z_][a-z0-9_]{0,62}$/.test(v), 'must be a plain lower-case identifier'),
  DATABASE_POOL_MAX: int(1, 500),
  DATABASE_STATEMENT_TIMEOUT_MS: int(100, 600_000),
  DATABASE_QUEUE_MAX: int(1, 100_000),
  DATABASE_UNNAMED_STATEMENTS: bool,
  CACHE_CHANNEL: optionalString.refine((v) => v === undefined || /^[A-Za-z0-9:_.-]{1,100}$/.test(v), 'letters, digits and : _ . - only (at most 100)'),
  DATA_DIR: optionalString,
  REDIS_URL: optionalString.refine((v) => v === undefined || /^rediss?:\/\//.test(v), 'must be a redis:// URL'),
  REDIS_TIMEOUT_MS: int(10, 10_000),
  SESSION_IDLE_SECONDS: int(60, 31_536_000),
  SESSION_MAX_AGE_SECONDS: int(60, 31_536_000),
  STAFF_SESSION_IDLE_SECONDS: int(60, 31_536_000),
  STAFF_SESSION_MAX_AGE_SECONDS: int(60, 31_536_000),
  SESSIONS_PER_USER_MAX: int(1, 1000),
  SESSION_CACHE_SECONDS: int(0, 300),
  SESSION_CACHE_MAX: int(1, 10_000_000),
  GUILD_ACCESS_MAX_AGE_SECONDS: int(0, 86_400),
  GUILD_WRITE_ACCESS_MAX_AGE_SECONDS: int(0, 86_400),
  BOT_GUILDS_DEADLINE_MS: int(100, 600_000),
  REQUEST_TIMEOUT_MS: int(100, 600_000),
  HEADERS_TIMEOUT_MS: int(100, 600_000),
  CONNECTION_TIMEOUT_MS: int(100, 3_600_000),
  KEEP_ALIVE_TIMEOUT_MS: int(100, 600_000),
  MAX_REQUESTS_PER_SOCKET: int(0, 1_000_000),
  MAX_EVENT_LOOP_DELAY_MS: int(0, 60_000),
  MAX_HEAP_USED_BYTES: int(0, Number.MAX_SAFE_INTEGER),
  MAX_RSS_BYTES: int(0, Number.MAX_SAFE_INTEGER),
  MAX_EVENT_LOOP_UTILIZATION: optionalString.refine(
    (v) => v === undefined || (/^\d*\.?\d+$/.test(v) && Number(v) >= 0 && Number(v) <= 1),
    'must be a number from 0 to 1',
  ),
  STAFF_OWNER_IDS: snowflakeList,
  PLANS_FILE: optionalString,
  RATE_LIMIT_MAX: int(1, 1_000_000),
  AUTH_RATE_LIMIT_MAX: int(1, 1_000_000),
  SANDBOX_RATE_LIMIT_MAX: int(1, 1_000_000),
  BOT_RATE_LIMIT_MAX: int(1, 1_000_000),
  TICKET_STREAMS_PER_USER: int(1, 100_000),
  BOT_KEY_FAILURES_MAX: int(1, 1_000_000),
  BOT_API_KEY: z
    .string()
    .regex(BOT_KEY_PATTERN, 'must be tk_bot_<8-32 lowercase letters or digits>_<32-128 letters, digits, - or _> (docs/operations.md, "Bot API keys")')
    .optional(),
  BOT_KEY_OVERLAP_SECONDS: int(0, 7 * 24 * 3600),
  BILLING_GRACE_DAYS: int(0, 60),
  WEBHOOK_WORK_INTERVAL_MS: int(0, 3_600_000),
  WEBHOOK_RATE_LIMIT_MAX: int(1, 1_000_000),
  PROVIDER_RATE_LIMIT_MAX: int(1, 1_000_000),
  STAFF_RATE_LIMIT_MAX: int(1, 1_000_000),
  PADDLE_WEBHOOK_SECRETS: optionalString,
  PADDLE_WEBHOOK_TOLERANCE_SECONDS: int(1, 3600),
  PADDLE_API_KEY: optionalString,
  PADDLE_JS_URL: url('PADDLE_JS_URL'),
  PADDLE_API_URL: url('PADDLE_API_URL'),
  FASTSPRING_API_USERNAME: optionalString,
  FASTSPRING_API_PASSWORD: optionalString,
  FASTSPRING_API_URL: url('FASTSPRING_API_URL'),
  FASTSPRING_WEBHOOK_SECRETS: optionalString,
  FASTSPRING_STOREFRONT: optionalString.refine((v) => v === undefined || /^[a-z0-9.-]+\/[A-Za-z0-9_-]+$/.test(v), 'must be a storefront path such as tickety.onfastspring.com/popup-tickety'),
  FASTSPRING_SCRIPT_URL: url('FASTSPRING_SCRIPT_URL'),
  FASTSPRING_PRIVATE_KEY: optionalString,
  CHARGEBEE_SITE: optionalString.refine((v) => v === undefined || /^[a-z0-9-]{1,63}$/.test(v), 'must be a Chargebee site name such as tickety or tickety-test'),
  CHARGEBEE_API_KEY: optionalString,
  CHARGEBEE_API_URL: url('CHARGEBEE_API_URL'),
  CHARGEBEE_WEBHOOK_CREDENTIALS: optionalString.refine(
    (v) => v === undefined || v.split(',').every((c) => /^[^:,\s]+:[^,\s]+$/.test(c.trim())),
    'must be user:password pairs, separated by commas',
  ),
  DISCORD_PUBLIC_KEYS: optionalString.refine((v) => v === undefined || v.split(',').every((k) => /^[0-9a-f]{64}$/i.test(k.trim())), 'must be Discord public keys (64 hex characters), separated by commas'),
  DISCORD_WEBHOOK_TOLERANCE_SECONDS: int(1, 3600),
  PREMIUM_SLOT_COOLDOWN_HOURS: int(0, 24 * 365),
  BILLING_RECONCILE_INTERVAL_MS: int(0, 7 * 24 * 3_600_000),
  TRUST_PROXY: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  BLOB_STORE: z.enum(['database', 's3'], { error: 'must be database or s3' }).optional(),
  S3_ENDPOINT: url('S3_ENDPOINT'),
  S3_REGION: optionalString.refine((v) => v === undefined || /^[a-z0-9-]{1,40}$/.test(v), 'must be a region name such as us-east-1 or auto'),
  S3_BUCKET: optionalString.refine(
    (v) => v === undefined || /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(v),
    'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens',
  ),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: optionalString.refine(
    (v) => v === undefined || ['1', 'true', 'yes', 'on', '0', 'false', 'no', 'off'].includes(v.toLowerCase()),
    'must be 1/true/yes/on or 0/false/no/off',
  ),
  S3_TIMEOUT_MS: int(100, 600_000),
});

const S3_VARIABLES = ['S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE', 'S3_TIMEOUT_MS'] as const;

/** BLOB_STORE and the S3_* variables as the store's settings; a missing or stray one fails the start, naming it (never a secret's value). */
function blobStoreConfig(settings: z.infer<typeof EnvSchema>): AppConfig['blobStore'] {
  const given = S3_VARIABLES.filter((name) => settings[name] !== undefined);
  if (settings.BLOB_STORE !== 's3') {
    if (given.length > 0) throw new ConfigError(`${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} set but BLOB_STORE is not s3 (transcripts stay in the database): set BLOB_STORE=s3, or unset ${given.length === 1 ? 'it' : 'them'}.`);
    return { kind: 'database' };
  }
  const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((name) => settings[name] === undefined);
  if (missing.length > 0) throw new ConfigError(`BLOB_STORE=s3 needs ${missing.join(', ')} (docs/operations.md, "Transcript storage").`);
  const endpoint = settings.S3_ENDPOINT === undefined ? null : trimSlash(settings.S3_ENDPOINT);
  if (endpoint !== null && (new URL(endpoint).search !== '' || new URL(endpoint).hash !== '')) throw new ConfigError('S3_ENDPOINT must be an origin (with a path at most), without ?query or #fragment.');
  const pathStyle = settings.S3_FORCE_PATH_STYLE;
  return {
    kind: 's3',
    endpoint,
    region: settings.S3_REGION ?? 'us-east-1',
    bucket: settings.S3_BUCKET!,
    accessKeyId: settings.S3_ACCESS_KEY_ID!,
    secretAccessKey: settings.S3_SECRET_ACCESS_KEY!,
    // Path-style unless told otherwise when an endpoint is given (MinIO, stand-ins); AWS's own: virtual-hosted.
    forcePathStyle: pathStyle === undefined ? endpoint !== null : ['1', 'true', 'yes', 'on'].includes(pathStyle.toLowerCase()),
    timeoutMs: settings.S3_TIMEOUT_MS ?? 15_000,
  };
}

/** Demo mode's Paddle client-side token (public by nature, like Paddle's own `test_…` tokens); its API key is derived (demoProviderSecrets). */
const DEMO_PADDLE_CLIENT_TOKEN = 'test_tickety_demo';
/** Demo mode's public token of the subscription-analytics script: the sandbox's stand-in accepts it. */
const DEMO_ANALYTICS_TOKEN = 'demo_analytics';

/**
 * Demo mode's provider credentials, derived from the token key (so no two demos share them and none
 * is in the source): the API's configuration and the launcher's stand-ins both use these.
 */
export function demoProviderSecrets(tokenKey: Buffer) {
  const hex = (label: string, n = 16) => deriveKey(tokenKey, label, n).toString('hex');
  return {
    paddle: { apiKey: `pdl_sdbx_apikey_${hex('demo paddle api')}` },
    fastspring: { apiUsername: 'tickety_demo', apiPassword: hex('demo fastspring api'), webhookSecret: hex('demo fastspring webhooks') },
    chargebee: { apiKey: `test_${hex('demo chargebee api')}`, webhookUser: 'tickety', webhookPassword: hex('demo chargebee webhooks') },
    /** The seed of the sandbox's Discord application's Ed25519 key (its private key). */
    discordEventSeed: deriveKey(tokenKey, 'demo discord webhook events', 32),
  };
}

/**
 * FASTSPRING_PRIVATE_KEY: the RSA private key (PEM; newlines may be written `\n`) whose public key the
 * FastSpring store has (Store Builder Library settings): it encrypts the checkouts' secure payloads.
 */
function storePrivateKey(value: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(value.replace(/\\n/g, '\n'));
  } catch {
    throw new ConfigError('FASTSPRING_PRIVATE_KEY must be an RSA private key in PEM (-----BEGIN PRIVATE KEY----- …; newlines may be written \\n).');
  }
  if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) {
    throw new ConfigError('FASTSPRING_PRIVATE_KEY must be an RSA private key of at least 2048 bits (FastSpring asks for 2048).');
  }
  return key;
}

let demoStore: KeyObject | null = null;
/**
 * Demo mode's FastSpring store key: made once per process (the launcher gives its public key to the
 * stand-in in the same process; a secure payload is made per checkout, so a restart loses nothing).
 */
function demoStoreKey(): KeyObject {
  demoStore ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  return demoStore;
}

/** The public key (64 hex characters) of an Ed25519 seed, as Discord shows an application's. */
function ed25519PublicKeyHex(seed: Buffer): string {
  const key = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });
  return Buffer.from(createPublicKey(key).export({ format: 'jwk' }).x!, 'base64url').toString('hex');
}

/** A comma-separated list of secrets (rotation: every one is accepted), or undefined when unset. */
function secretList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

function origin(value: string, name: string): string {
  try {
    const url = new URL(value);
    return url.origin;
  } catch {
    throw new ConfigError(`${name}: "${value}" is not a URL.`);
  }
}

function trimSlash(value: string): string {
  return value.replace(/\/+$/, '');
}

function isLocalHttp(publicUrl: string): boolean {
  const url = new URL(publicUrl);
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** Reads and validates the plan catalogue (config/plans.json or PLANS_FILE). */
function loadPlans(file: string): Plan[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`PLANS_FILE: cannot read ${file} as JSON (${(error as Error).message}).`);
  }
  const parsed = PlanCatalogue.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`PLANS_FILE: ${file}: ${issue ? `${issue.path.join('.') || 'catalogue'} ${issue.message}` : 'invalid'}.`);
  }
  return parsed.data;
}

/**
 * The token-encryption key: TOKEN_ENCRYPTION_KEY (32 bytes, base64), or in demo mode one generated
 * once and kept beside the database (`<data folder>/../token-encryption.key`, mode 0600).
 */
function loadKey(value: string | undefined, demo: boolean, dataDir: string): Buffer {
  if (value !== undefined) {
    const key = Buffer.from(value, 'base64');
    if (key.length !== 32) {
      throw new ConfigError('TOKEN_ENCRYPTION_KEY must be 32 bytes, base64-encoded (openssl rand -base64 32).');
    }
    return key;
  }
  if (!demo) {
    throw new ConfigError(
      'TOKEN_ENCRYPTION_KEY is required with a real Discord application (32 bytes, base64: openssl rand -base64 32).',
    );
  }
  if (dataDir.startsWith('memory://')) return Buffer.from(randomKeyBase64(), 'base64');
  const file = resolve(dataDir, '..', 'token-encryption.key');
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new ConfigError(`${file} does not hold a 32-byte base64 key; delete it to generate a new one.`);
    return key;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${randomKeyBase64()}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

/** TOKEN_ENCRYPTION_PREVIOUS_KEYS: comma-separated 32-byte base64 keys, accepted for decryption only. */
function previousKeys(value: string | undefined): Buffer[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    .map((encodedKey, i) => {
      const key = Buffer.from(encodedKey, 'base64');
      if (key.length !== 32) throw new ConfigError(`TOKEN_ENCRYPTION_PREVIOUS_KEYS: key ${i + 1} is not 32 bytes, base64-encoded.`);
      return key;
    });
}

/** The shortest configuration-file secret accepted (bytes): HMAC-SHA256 gains nothing from a longer one. */
const CONFIG_FILE_KEY_MIN_BYTES = 32;
const CONFIG_FILE_KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * CONFIG_FILE_KEYS: `id:secret` pairs, comma-separated; the secret at least 32 random bytes, base64
 * or base64url (`openssl rand -base64 32`). The first signs exports, all verify imports. Besides,
 * one key per token-encryption key, derived from it (HKDF, purpose `config-file-signing`), named
 * `tk-` and a public id derived apart: unset, the current one of those signs (demo, development and
 * tests need no setting, the same key after a restart); set, they still verify (files exported
 * before CONFIG_FILE_KEYS was set keep importing). Errors never show a secret.
 */
function configFileKeys(value: string | undefined, tokenKeys: readonly Buffer[]): AppConfig['configFiles'] {
  const derivedKeys: ConfigFileKey[] = tokenKeys.map((master) => ({
    id: `tk-${deriveKey(master, 'config-file-key-id', 6).toString('base64url')}`,
    secret: deriveKey(master, 'config-file-signing'),
  }));
  if (value === undefined) return { derived: true, keys: derivedKeys };
  const keys: ConfigFileKey[] = [];
  value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .forEach((entry, index) => {
      const colon = entry.indexOf(':');
      const id = colon === -1 ? '' : entry.slice(0, colon).trim();
      const secret = colon === -1 ? '' : entry.slice(colon + 1).trim();
      const where = `CONFIG_FILE_KEYS: key ${index + 1}`;
      if (colon === -1) throw new ConfigError(`${where} must be written id:secret (e.g. 2025-06:<openssl rand -base64 32>).`);
      if (!CONFIG_FILE_KEY_ID.test(id)) throw new ConfigError(`${where}: its id must be 1 to 64 letters, digits, '.', '_' or '-'.`);
      if (keys.some((key) => key.id === id)) throw new ConfigError(`${where}: the id "${id}" is used twice; each key needs its own id.`);
      const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(secret) ? Buffer.from(secret, 'base64') : Buffer.alloc(0);
      if (bytes.length < CONFIG_FILE_KEY_MIN_BYTES) {
        throw new ConfigError(`${where} ("${id}"): the secret must be at least ${CONFIG_FILE_KEY_MIN_BYTES} random bytes, base64-encoded (openssl rand -base64 32).`);
      }
      keys.push({ id, secret: bytes });
    });
  if (keys.length === 0) throw new ConfigError('CONFIG_FILE_KEYS: name at least one key (id:secret), or leave it unset.');
  return { derived: false, keys: [...keys, ...derivedKeys.filter((derived) => !keys.some((key) => key.id === derived.id))] };
}

function randomKeyBase64(): string {
  return randomBytes(32).toString('base64');
}

/**
 * The stand-in Discord application of demo mode, given by whoever composes the API with the sandbox
 * (the all-in-one launcher, `apps/api/demo/`; the tests): its credentials and the staff owners the
 * demo data has. The API itself knows no sandbox.
 */
export interface DemoDiscord {
  clientId: string;
  clientSecret: string;
  botToken: string;
  staffOwnerIds: string[];
  /** The demo bot's key to the bot API (used unless BOT_API_KEY is set). */
  botApiKey?: string;
}

/**
 * Parses the environment. Throws ConfigError with one line per problem. Without DISCORD_CLIENT_ID it
 * is demo mode, which needs `demo` (the sandbox's application): the production entry has none.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, demoDiscord?: DemoDiscord): AppConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const settings = parsed.data;
  const nodeEnv = settings.NODE_ENV === 'production' ? 'production' : settings.NODE_ENV === 'test' ? 'test' : 'development';
  const port = settings.PORT ?? 3000;
  const publicUrl = trimSlash(settings.PUBLIC_URL ?? `http://localhost:${port}`);
  const publicOrigin = origin(publicUrl, 'PUBLIC_URL');
  if (publicOrigin !== publicUrl) {
    throw new ConfigError(`PUBLIC_URL must be an origin (scheme://host[:port]) without a path, not "${publicUrl}".`);
  }
  const demo = settings.DISCORD_CLIENT_ID === undefined;

  const dataDir = settings.DATA_DIR ?? join(REPO_DIR, '.data', 'pglite');
  const resolvedDataDir = dataDir.startsWith('memory://') || isAbsolute(dataDir) ? dataDir : resolve(dataDir);

  let discord: AppConfig['discord'];
  if (demo) {
    if (!demoDiscord) {
      throw new ConfigError(
        'DISCORD_CLIENT_ID is not set: set DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET (docs/operations.md). The demo, with a stand-in Discord, runs with `npm start`.',
      );
    }
    const base = `${publicUrl}/sandbox/discord`;
    discord = {
      clientId: demoDiscord.clientId,
      clientSecret: demoDiscord.clientSecret,
      botToken: demoDiscord.botToken,
      origin: trimSlash(settings.DISCORD_ORIGIN ?? base),
      apiBase: trimSlash(settings.DISCORD_API_URL ?? `${base}/api/v10`),
      cdnBase: trimSlash(settings.DISCORD_CDN_URL ?? `${base}/cdn`),
      timeoutMs: settings.DISCORD_TIMEOUT_MS ?? 10_000,
      botGuildsDeadlineMs: settings.BOT_GUILDS_DEADLINE_MS ?? 20_000,
    };
  } else {
    if (!settings.DISCORD_CLIENT_SECRET) {
      throw new ConfigError('DISCORD_CLIENT_SECRET is required when DISCORD_CLIENT_ID is set.');
    }
    const discordOrigin = trimSlash(settings.DISCORD_ORIGIN ?? 'https://discord.com');
    discord = {
      clientId: settings.DISCORD_CLIENT_ID!,
      clientSecret: settings.DISCORD_CLIENT_SECRET,
      botToken: settings.DISCORD_BOT_TOKEN ?? null,
      origin: discordOrigin,
      apiBase: trimSlash(settings.DISCORD_API_URL ?? `${discordOrigin}/api/v10`),
      cdnBase: trimSlash(settings.DISCORD_CDN_URL ?? 'https://cdn.discordapp.com'),
      timeoutMs: settings.DISCORD_TIMEOUT_MS ?? 10_000,
      botGuildsDeadlineMs: settings.BOT_GUILDS_DEADLINE_MS ?? 20_000,
    };
  }

  const dashboardOrigins = (settings.DASHBOARD_ORIGINS ?? publicOrigin)
    .split(',')
    .map((options) => options.trim())
    .filter(Boolean)
    .map((value) => {
      const normal = origin(value, 'DASHBOARD_ORIGINS');
      if (normal !== trimSlash(value)) throw new ConfigError(`DASHBOARD_ORIGINS: "${value}" must be an origin (scheme://host[:port]), no path.`);
      return normal;
    });
  if (dashboardOrigins.length === 0) throw new ConfigError('DASHBOARD_ORIGINS: at least one origin is required.');

  const idleSeconds = settings.SESSION_IDLE_SECONDS ?? 24 * 3600;
  const maxAgeSeconds = settings.SESSION_MAX_AGE_SECONDS ?? 7 * 24 * 3600;
  if (idleSeconds > maxAgeSeconds) throw new ConfigError('SESSION_IDLE_SECONDS must not exceed SESSION_MAX_AGE_SECONDS.');
  const staffIdleSeconds = settings.STAFF_SESSION_IDLE_SECONDS ?? 30 * 60;
  const staffMaxAgeSeconds = settings.STAFF_SESSION_MAX_AGE_SECONDS ?? 12 * 3600;
  if (staffIdleSeconds > staffMaxAgeSeconds) throw new ConfigError('STAFF_SESSION_IDLE_SECONDS must not exceed STAFF_SESSION_MAX_AGE_SECONDS.');
  const requestTimeoutMs = settings.REQUEST_TIMEOUT_MS ?? 30_000;

  const staffOwnerIds = (settings.STAFF_OWNER_IDS ?? (demo ? (demoDiscord?.staffOwnerIds ?? []).join(',') : ''))
    .split(',')
    .map((id: string) => id.trim())
    .filter(Boolean);

  // REMOTE_<NAME>_URL: only the remotes overridden (the others come from the site's config.json).
  const remotes: Partial<Record<RemoteId, string>> = {};
  for (const name of REMOTE_IDS) {
    const value = settings[remoteUrlVariable(name)];
    if (value !== undefined) remotes[name] = value;
  }

  const inviteUrl =
    settings.INVITE_URL ??
    `${discord.origin}/oauth2/authorize?client_id=${discord.clientId}&scope=bot%20applications.commands&permissions=${BOT_PERMISSIONS}`;

  let trustProxy: boolean | string = false;
  if (settings.TRUST_PROXY !== undefined) {
    const trust = settings.TRUST_PROXY.toLowerCase();
    trustProxy = ['1', 'true', 'yes'].includes(trust) ? true : ['0', 'false', 'no'].includes(trust) ? false : settings.TRUST_PROXY;
  }

  const tokenEncryptionKey = loadKey(settings.TOKEN_ENCRYPTION_KEY, demo, resolvedDataDir);
  const previousTokenEncryptionKeys = previousKeys(settings.TOKEN_ENCRYPTION_PREVIOUS_KEYS);
  const demoSecrets = demoProviderSecrets(tokenEncryptionKey);
  // The providers' APIs carry our keys and passwords: never over plain http to another machine.
  for (const name of ['PADDLE_API_URL', 'FASTSPRING_API_URL', 'CHARGEBEE_API_URL'] as const) {
    const value = settings[name];
    if (value === undefined || demo) continue;
    const url = new URL(value);
    if (url.protocol !== 'https:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
      throw new ConfigError(`${name} must be an https URL (the API key travels with every call), not ${url.protocol}//${url.host}.`);
    }
  }

  return {
    env: nodeEnv,
    host: settings.HOST ?? '127.0.0.1',
    port,
    publicUrl,
    allInOne: settings.ALL_IN_ONE,
    staticRoot: resolve(settings.STATIC_ROOT ?? join(REPO_DIR, '.data', 'site')),
    dashboardOrigins,
    productName: settings.PRODUCT_NAME ?? 'Tickety',
    docsUrl: settings.DOCS_URL ?? 'https://docs.tickety.gg',
    supportUrl: settings.SUPPORT_URL ?? DEFAULT_SUPPORT_URL,
    inviteUrl,
    remotes,
    paddleToken: settings.PADDLE_CLIENT_TOKEN ?? (demo ? DEMO_PADDLE_CLIENT_TOKEN : null),
    analyticsToken: settings.ANALYTICS_TOKEN ?? (demo ? DEMO_ANALYTICS_TOKEN : null),
    analyticsScriptUrl:
      (settings.ANALYTICS_TOKEN ?? (demo ? DEMO_ANALYTICS_TOKEN : null)) === null
        ? null
        : (settings.ANALYTICS_SCRIPT_URL ?? (demo ? `${publicUrl}/sandbox/analytics/profitwell.js` : 'https://public.profitwell.com/js/profitwell.js')),
    paddleScriptUrl:
      (settings.PADDLE_CLIENT_TOKEN ?? (demo ? DEMO_PADDLE_CLIENT_TOKEN : null)) === null
        ? null
        : (settings.PADDLE_JS_URL ?? (demo ? `${publicUrl}/sandbox/paddle/paddle.js` : 'https://cdn.paddle.com/paddle/v2/paddle.js')),
    demo,
    // Anyone reaching a demo could inject faults for everyone: off unless explicitly enabled.
    sandboxControl: demo && settings.SANDBOX_CONTROL !== undefined && ['1', 'true', 'yes', 'on'].includes(settings.SANDBOX_CONTROL.toLowerCase()),
    discord,
    tokenEncryptionKey,
    previousTokenEncryptionKeys,
    configFiles: configFileKeys(settings.CONFIG_FILE_KEYS, [tokenEncryptionKey, ...previousTokenEncryptionKeys]),
    database: {
      url: settings.DATABASE_URL ?? null,
      schema: settings.DATABASE_SCHEMA ?? null,
      dataDir: resolvedDataDir,
      poolMax: settings.DATABASE_POOL_MAX ?? 10,
      statementTimeoutMs: settings.DATABASE_STATEMENT_TIMEOUT_MS ?? 15_000,
      queueMax: settings.DATABASE_QUEUE_MAX ?? 200,
      unnamedStatements: settings.DATABASE_UNNAMED_STATEMENTS,
    },
    cacheChannel: settings.CACHE_CHANNEL ?? `tickety:cache:${settings.DATABASE_SCHEMA ?? 'public'}`,
    redisUrl: settings.REDIS_URL ?? null,
    redisTimeoutMs: settings.REDIS_TIMEOUT_MS ?? 250,
    // Demo users are shared by every visitor of a demo: a small cap would have them sign each other out.
    session: { idleSeconds, maxAgeSeconds, maxPerUser: settings.SESSIONS_PER_USER_MAX ?? (demo ? 1000 : 20), staffIdleSeconds, staffMaxAgeSeconds,
      cacheSeconds: settings.SESSION_CACHE_SECONDS ?? 15, cacheMax: settings.SESSION_CACHE_MAX ?? 100_000 },
    guildAccess: {
      readMaxAgeSeconds: settings.GUILD_ACCESS_MAX_AGE_SECONDS ?? 300,
      writeMaxAgeSeconds: settings.GUILD_WRITE_ACCESS_MAX_AGE_SECONDS ?? 60,
    },
    http: {
      requestTimeoutMs: requestTimeoutMs,
      headersTimeoutMs: Math.min(settings.HEADERS_TIMEOUT_MS ?? 10_000, requestTimeoutMs),
      connectionTimeoutMs: settings.CONNECTION_TIMEOUT_MS ?? 60_000,
      keepAliveTimeoutMs: settings.KEEP_ALIVE_TIMEOUT_MS ?? 72_000,
      maxRequestsPerSocket: settings.MAX_REQUESTS_PER_SOCKET ?? 1000,
    },
    pressure: {
      maxEventLoopDelayMs: settings.MAX_EVENT_LOOP_DELAY_MS ?? 1_000,
      maxHeapUsedBytes: settings.MAX_HEAP_USED_BYTES ?? 0,
      maxRssBytes: settings.MAX_RSS_BYTES ?? 0,
      // Off by default: the embedded database runs on the event loop, so a busy all-in-one demo is busy, not stuck.
      maxEventLoopUtilization: settings.MAX_EVENT_LOOP_UTILIZATION === undefined ? 0 : Number(settings.MAX_EVENT_LOOP_UTILIZATION),
    },
    secureCookies: !isLocalHttp(publicUrl),
    staffOwnerIds,
    plans: loadPlans(settings.PLANS_FILE ? resolve(settings.PLANS_FILE) : join(API_DIR, 'config', 'plans.json')),
    rateLimit: {
      max: settings.RATE_LIMIT_MAX ?? 300,
      authMax: settings.AUTH_RATE_LIMIT_MAX ?? 30,
      sandboxMax: settings.SANDBOX_RATE_LIMIT_MAX ?? 600,
      botMax: settings.BOT_RATE_LIMIT_MAX ?? 1200,
      ticketStreamsPerUser: settings.TICKET_STREAMS_PER_USER ?? 10,
      botKeyFailuresMax: settings.BOT_KEY_FAILURES_MAX ?? 30,
      webhookMax: settings.WEBHOOK_RATE_LIMIT_MAX ?? 6000,
      providerMax: settings.PROVIDER_RATE_LIMIT_MAX ?? 30,
      staffMax: settings.STAFF_RATE_LIMIT_MAX ?? 120,
      windowMs: 60_000,
    },
    bot: {
      apiKey: settings.BOT_API_KEY ?? (demo ? (demoDiscord?.botApiKey ?? null) : null),
      keyOverlapSeconds: settings.BOT_KEY_OVERLAP_SECONDS ?? BOT_KEY_OVERLAP_DEFAULT_S,
    },
    billing: {
      graceDays: settings.BILLING_GRACE_DAYS ?? DEFAULT_GRACE_DAYS,
      workIntervalMs: settings.WEBHOOK_WORK_INTERVAL_MS ?? 1000,
      paddle: {
        // Demo mode: a secret derived from the token key, which the all-in-one launcher gives the sandbox's Paddle.
        webhookSecrets: secretList(settings.PADDLE_WEBHOOK_SECRETS) ?? (demo ? [`pdl_ntfset_demo_${deriveKey(tokenEncryptionKey, 'demo paddle webhooks', 16).toString('hex')}`] : []),
        toleranceSeconds: settings.PADDLE_WEBHOOK_TOLERANCE_SECONDS ?? 5,
        // Demo mode: the sandbox's Paddle (mounted by the all-in-one launcher at /sandbox/paddle) and its demo key.
        apiKey: settings.PADDLE_API_KEY ?? (demo ? demoSecrets.paddle.apiKey : null),
        apiBase: trimSlash(settings.PADDLE_API_URL ?? (demo ? `${publicUrl}/sandbox/paddle` : 'https://api.paddle.com')),
      },
      // Demo mode: the launcher's stand-ins at /sandbox/fastspring and /sandbox/chargebee, and the
      // sandbox Discord application's key, all with credentials derived from the token key.
      fastspring: {
        apiUsername: settings.FASTSPRING_API_USERNAME ?? (demo ? demoSecrets.fastspring.apiUsername : null),
        apiPassword: settings.FASTSPRING_API_PASSWORD ?? (demo ? demoSecrets.fastspring.apiPassword : null),
        apiBase: trimSlash(settings.FASTSPRING_API_URL ?? (demo ? `${publicUrl}/sandbox/fastspring` : 'https://api.fastspring.com')),
        webhookSecrets: secretList(settings.FASTSPRING_WEBHOOK_SECRETS) ?? (demo ? [demoSecrets.fastspring.webhookSecret] : []),
        storefront: settings.FASTSPRING_STOREFRONT ?? (demo ? 'tickety.test.onfastspring.com/popup-tickety' : null),
        scriptUrl: settings.FASTSPRING_SCRIPT_URL ?? (demo ? `${publicUrl}/sandbox/fastspring/sbl/fastspring-builder.js` : 'https://sbl.onfastspring.com/sbl/1.0.3/fastspring-builder.min.js'),
        securePayloadKey: settings.FASTSPRING_PRIVATE_KEY !== undefined ? storePrivateKey(settings.FASTSPRING_PRIVATE_KEY) : demo ? demoStoreKey() : null,
      },
      chargebee: {
        site: settings.CHARGEBEE_SITE ?? (demo ? 'tickety-test' : null),
        apiKey: settings.CHARGEBEE_API_KEY ?? (demo ? demoSecrets.chargebee.apiKey : null),
        apiBase: trimSlash(
          settings.CHARGEBEE_API_URL ??
            (demo ? `${publicUrl}/sandbox/chargebee/api/v2` : `https://${settings.CHARGEBEE_SITE ?? 'site'}.chargebee.com/api/v2`),
        ),
        webhookCredentials:
          secretList(settings.CHARGEBEE_WEBHOOK_CREDENTIALS) ?? (demo ? [`${demoSecrets.chargebee.webhookUser}:${demoSecrets.chargebee.webhookPassword}`] : []),
      },
      discord: {
        publicKeys: secretList(settings.DISCORD_PUBLIC_KEYS)?.map((k) => k.toLowerCase()) ?? (demo ? [ed25519PublicKeyHex(demoSecrets.discordEventSeed)] : []),
        toleranceSeconds: settings.DISCORD_WEBHOOK_TOLERANCE_SECONDS ?? 300,
      },
      slotCooldownHours: settings.PREMIUM_SLOT_COOLDOWN_HOURS ?? 24,
      reconcileIntervalMs: settings.BILLING_RECONCILE_INTERVAL_MS ?? 3_600_000,
    },
    blobStore: blobStoreConfig(settings),
    trustProxy,
    logLevel: settings.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
  };
}

/**
 * Permissions the invite link asks for: VIEW_CHANNEL, SEND_MESSAGES, MANAGE_CHANNELS, MANAGE_ROLES,
 * EMBED_LINKS, ATTACH_FILES, READ_MESSAGE_HISTORY, MANAGE_MESSAGES, MANAGE_THREADS, SEND_MESSAGES_IN_THREADS.
 */
export const BOT_PERMISSIONS = String(
  (1n << 10n) | (1n << 11n) | (1n << 4n) | (1n << 28n) | (1n << 14n) | (1n << 15n) | (1n << 16n) | (1n << 13n) | (1n << 34n) | (1n << 38n),
);
