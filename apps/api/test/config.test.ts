import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_APP, DEMO_BOT_API_KEY, DEMO_USERS } from '@tickety/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_DISCORD } from '../demo/demo';
import { BOT_PERMISSIONS, ConfigError, loadConfig as loadApiConfig, REPO_DIR } from '../src/config';
import { checkoutSources, htmlCsp } from '../src/plugins/app/security';

/** As the all-in-one launcher loads it: the sandbox's application for demo mode (apps/api/demo). */
const loadConfig = (env: NodeJS.ProcessEnv) => loadApiConfig(env, DEMO_DISCORD);

const KEY = randomBytes(32).toString('base64');
const REAL = { DISCORD_CLIENT_ID: '987654321098765432', DISCORD_CLIENT_SECRET: 'secret', TOKEN_ENCRYPTION_KEY: KEY };
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tickety-config-'));
  dirs.push(dir);
  return dir;
}

function configError(env: Record<string, string>): string {
  try {
    loadConfig({ DATA_DIR: 'memory://', ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe('the production entry (no demo application given)', () => {
  it('refuses to start without a Discord application, and says how to run the demo', () => {
    expect(() => loadApiConfig({ DATA_DIR: 'memory://' })).toThrow(/DISCORD_CLIENT_ID is not set: .*npm start/);
    expect(loadApiConfig({ DATA_DIR: 'memory://', ...REAL }).demo).toBe(false);
  });
});

describe('loadConfig defaults (demo mode, all-in-one on localhost)', () => {
  const config = loadConfig({ DATA_DIR: 'memory://' });

  it('runs on localhost:3000 in demo mode with the sandbox as Discord', () => {
    expect(config.env).toBe('development');
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.dashboardOrigins).toEqual(['http://localhost:3000']);
    expect(config.demo).toBe(true);
    expect(config.allInOne).toBe(false);
    expect(config.discord).toEqual({
      clientId: DEMO_APP.clientId,
      clientSecret: DEMO_APP.clientSecret,
      botToken: DEMO_APP.botToken,
      origin: 'http://localhost:3000/sandbox/discord',
      apiBase: 'http://localhost:3000/sandbox/discord/api/v10',
      cdnBase: 'http://localhost:3000/sandbox/discord/cdn',
      timeoutMs: 10_000,
      botGuildsDeadlineMs: 20_000,
    });
    expect(config.staffOwnerIds).toEqual([DEMO_USERS.sam.id]);
  });

  it('has the documented limits and lifetimes', () => {
    expect(config.session).toEqual({ idleSeconds: 24 * 3600, maxAgeSeconds: 7 * 24 * 3600, maxPerUser: 1000, staffIdleSeconds: 30 * 60, staffMaxAgeSeconds: 12 * 3600, cacheSeconds: 15, cacheMax: 100_000 });
    expect(() => loadConfig({ ...REAL, STAFF_SESSION_IDLE_SECONDS: '7200', STAFF_SESSION_MAX_AGE_SECONDS: '3600' })).toThrow(/STAFF_SESSION_IDLE_SECONDS must not exceed/);
    // With a real Discord application, 20 sessions per user.
    expect(loadConfig({ ...REAL }).session.maxPerUser).toBe(20);
    expect(config.rateLimit).toEqual({ max: 300, authMax: 30, sandboxMax: 600, botMax: 1200, ticketStreamsPerUser: 10, botKeyFailuresMax: 30, webhookMax: 6000, providerMax: 30, staffMax: 120, windowMs: 60_000 });
    // Billing: 3 days of grace, the inbox drained every second; in demo mode a Paddle secret derived from the token key.
    expect(config.billing).toMatchObject({ graceDays: 3, workIntervalMs: 1000, reconcileIntervalMs: 3_600_000, paddle: { toleranceSeconds: 5, webhookSecrets: [expect.stringMatching(/^pdl_ntfset_demo_[0-9a-f]{32}$/)] } });
    expect(loadConfig({ ...REAL }).billing.paddle.webhookSecrets).toEqual([]);
    expect(loadConfig({ ...REAL, PADDLE_WEBHOOK_SECRETS: ' a , b ', PADDLE_WEBHOOK_TOLERANCE_SECONDS: '30', BILLING_GRACE_DAYS: '7' }).billing).toMatchObject({
      graceDays: 7,
      paddle: { webhookSecrets: ['a', 'b'], toleranceSeconds: 30 },
    });
    // Demo mode: the demo bot's key, unless BOT_API_KEY is set.
    expect(config.bot).toEqual({ apiKey: DEMO_BOT_API_KEY, keyOverlapSeconds: 86_400 });
    expect(config.database).toEqual({ url: null, schema: null, dataDir: 'memory://', poolMax: 10, statementTimeoutMs: 15_000, queueMax: 200, unnamedStatements: false });
    expect(config.cacheChannel).toBe('tickety:cache:public');
    expect(loadConfig({ ...REAL, DATABASE_SCHEMA: 'eu', DATABASE_UNNAMED_STATEMENTS: '1' })).toMatchObject({ cacheChannel: 'tickety:cache:eu', database: { unnamedStatements: true } });
    expect(loadConfig({ ...REAL, CACHE_CHANNEL: 'acme:tickety' }).cacheChannel).toBe('acme:tickety');
    expect(() => loadConfig({ ...REAL, CACHE_CHANNEL: 'a b' })).toThrow(/CACHE_CHANNEL/);
    expect(config.guildAccess).toEqual({ readMaxAgeSeconds: 300, writeMaxAgeSeconds: 60 });
    expect(config.http).toEqual({ requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, connectionTimeoutMs: 60_000, keepAliveTimeoutMs: 72_000, maxRequestsPerSocket: 1000 });
    expect(config.pressure).toEqual({ maxEventLoopDelayMs: 1_000, maxHeapUsedBytes: 0, maxRssBytes: 0, maxEventLoopUtilization: 0 });
    expect(config.previousTokenEncryptionKeys).toEqual([]);
    expect(config.secureCookies).toBe(false);
    expect(config.trustProxy).toBe(false);
    expect(config.redisUrl).toBeNull();
    expect(config.redisTimeoutMs).toBe(250);
    expect(config.productName).toBe('Tickety');
    expect(config.plans.map((p) => p.id)).toEqual(['free', 'premium']);
    expect(config.tokenEncryptionKey).toHaveLength(32);
  });

  it('builds the invite link with the bot permissions', () => {
    expect(config.inviteUrl).toBe(
      `http://localhost:3000/sandbox/discord/oauth2/authorize?client_id=${DEMO_APP.clientId}&scope=bot%20applications.commands&permissions=${BOT_PERMISSIONS}`,
    );
    const bits = BigInt(BOT_PERMISSIONS);
    for (const bit of [10n, 11n, 14n, 34n, 38n]) expect(bits & (1n << bit)).not.toBe(0n);
    expect(bits & 8n).toBe(0n); // never ADMINISTRATOR
  });

  it('takes a bot API key from BOT_API_KEY (none with a real application unless set), refusing a malformed one', () => {
    const key = `tk_bot_prodkey01_${'p'.repeat(43)}`;
    expect(loadConfig({ DATA_DIR: 'memory://', BOT_API_KEY: key }).bot.apiKey).toBe(key);
    expect(loadConfig({ ...REAL }).bot.apiKey).toBeNull();
    expect(loadConfig({ ...REAL, BOT_API_KEY: key, BOT_KEY_OVERLAP_SECONDS: '60', BOT_RATE_LIMIT_MAX: '50', BOT_KEY_FAILURES_MAX: '5' })).toMatchObject({ bot: { apiKey: key, keyOverlapSeconds: 60 }, rateLimit: { botMax: 50, botKeyFailuresMax: 5 } });
    expect(configError({ BOT_API_KEY: 'hunter2' })).toMatch(/BOT_API_KEY: must be tk_bot_/);
    expect(configError({ BOT_KEY_OVERLAP_SECONDS: '9999999' })).toMatch(/BOT_KEY_OVERLAP_SECONDS/);
  });

  it('offers the sandbox controls only when SANDBOX_CONTROL enables them, in demo mode', () => {
    // Off unless explicitly enabled, in every environment.
    expect(config.sandboxControl).toBe(false);
    expect(loadConfig({ DATA_DIR: 'memory://', NODE_ENV: 'development' }).sandboxControl).toBe(false);
    expect(loadConfig({ DATA_DIR: 'memory://', NODE_ENV: 'production' }).sandboxControl).toBe(false);
    expect(loadConfig({ DATA_DIR: 'memory://', NODE_ENV: 'production', SANDBOX_CONTROL: 'yes' }).sandboxControl).toBe(true);
    expect(loadConfig({ DATA_DIR: 'memory://', SANDBOX_CONTROL: '0' }).sandboxControl).toBe(false);
    expect(loadConfig({ ...REAL, SANDBOX_CONTROL: '1' }).sandboxControl).toBe(false);
    expect(configError({ SANDBOX_CONTROL: 'maybe' })).toMatch(/SANDBOX_CONTROL: must be/);
  });

  it('reads the hardening limits, and refuses bad values with a clear line', () => {
    const custom = loadConfig({
      DATA_DIR: 'memory://',
      REQUEST_TIMEOUT_MS: '5000',
      HEADERS_TIMEOUT_MS: '9000',
      MAX_EVENT_LOOP_UTILIZATION: '0.9',
      DATABASE_QUEUE_MAX: '7',
      TOKEN_ENCRYPTION_PREVIOUS_KEYS: `${Buffer.alloc(32, 1).toString('base64')}, ${Buffer.alloc(32, 2).toString('base64')}`,
    });
    // The headers must arrive within the whole request's time.
    expect(custom.http).toMatchObject({ requestTimeoutMs: 5_000, headersTimeoutMs: 5_000 });
    expect(custom.pressure.maxEventLoopUtilization).toBe(0.9);
    expect(custom.database.queueMax).toBe(7);
    expect(custom.previousTokenEncryptionKeys.map((k) => k[0])).toEqual([1, 2]);
    expect(configError({ MAX_EVENT_LOOP_UTILIZATION: '1.5' })).toMatch(/MAX_EVENT_LOOP_UTILIZATION: must be a number from 0 to 1/);
    expect(configError({ REQUEST_TIMEOUT_MS: '10' })).toMatch(/REQUEST_TIMEOUT_MS: must be a whole number from 100/);
    expect(configError({ TOKEN_ENCRYPTION_PREVIOUS_KEYS: 'c2hvcnQ=' })).toMatch(/TOKEN_ENCRYPTION_PREVIOUS_KEYS: key 1 is not 32 bytes/);
  });

  it('defaults the PGlite data folder to <repo>/.data/pglite', () => {
    expect(loadConfig({ TOKEN_ENCRYPTION_KEY: KEY }).database.dataDir).toBe(join(REPO_DIR, '.data', 'pglite'));
  });

  it('defaults the site folder to <repo>/.data/site and overrides no remote', () => {
    expect(config.staticRoot).toBe(join(REPO_DIR, '.data', 'site'));
    expect(config.remotes).toEqual({});
    const withRemote = loadConfig({ DATA_DIR: 'memory://', STATIC_ROOT: '/srv/site', REMOTE_BILLING_URL: 'http://localhost:4002/mf-manifest.json' });
    expect(withRemote.staticRoot).toBe('/srv/site');
    expect(withRemote.remotes).toEqual({ billing: 'http://localhost:4002/mf-manifest.json' });
  });
});

describe('loadConfig with a real Discord application (split deployment)', () => {
  it('uses Discord and the given origins', () => {
    const config = loadConfig({
      ...REAL,
      DISCORD_BOT_TOKEN: 'bot',
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://api.tickety.gg/',
      DASHBOARD_ORIGINS: 'https://tickety.gg, https://beta.tickety.gg',
      DATABASE_URL: 'postgres://u:p@db:5432/tickety',
      DATABASE_SCHEMA: 'tickety',
      DATABASE_POOL_MAX: '20',
      REDIS_URL: 'redis://redis:6379',
      REDIS_TIMEOUT_MS: '500',
      TRUST_PROXY: '1',
      STAFF_OWNER_IDS: '111111111111111111, 222222222222222222',
    });
    expect(config.env).toBe('production');
    expect(config.demo).toBe(false);
    expect(config.publicUrl).toBe('https://api.tickety.gg');
    expect(config.secureCookies).toBe(true);
    expect(config.dashboardOrigins).toEqual(['https://tickety.gg', 'https://beta.tickety.gg']);
    expect(config.discord).toMatchObject({
      clientId: '987654321098765432',
      clientSecret: 'secret',
      botToken: 'bot',
      origin: 'https://discord.com',
      apiBase: 'https://discord.com/api/v10',
      cdnBase: 'https://cdn.discordapp.com',
    });
    expect(config.database).toMatchObject({ url: 'postgres://u:p@db:5432/tickety', schema: 'tickety', poolMax: 20 });
    expect(config.redisUrl).toBe('redis://redis:6379');
    expect(config.redisTimeoutMs).toBe(500);
    expect(config.trustProxy).toBe(true);
    expect(config.staffOwnerIds).toEqual(['111111111111111111', '222222222222222222']);
    expect(config.supportUrl).toBe('https://discord.gg/tickety');
    expect(config.tokenEncryptionKey.equals(Buffer.from(KEY, 'base64'))).toBe(true);
    expect(config.logLevel).toBe('info');
  });

  it('needs the client secret and a token-encryption key', () => {
    expect(configError({ DISCORD_CLIENT_ID: '987654321098765432' })).toMatch(/DISCORD_CLIENT_SECRET is required/);
    expect(configError({ DISCORD_CLIENT_ID: '987654321098765432', DISCORD_CLIENT_SECRET: 's' })).toMatch(/TOKEN_ENCRYPTION_KEY is required/);
    expect(configError({ ...REAL, TOKEN_ENCRYPTION_KEY: randomBytes(16).toString('base64') })).toMatch(/32 bytes/);
  });

  it('reads TRUST_PROXY as a boolean or a list of addresses', () => {
    expect(loadConfig({ ...REAL, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ ...REAL, TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }).trustProxy).toBe('10.0.0.0/8,127.0.0.1');
  });

  it('sets Secure cookies everywhere except plain-http localhost', () => {
    for (const [url, secure] of [
      ['http://localhost:8080', false],
      ['http://127.0.0.1:3000', false],
      ['http://[::1]:3000', false],
      ['https://localhost:3000', true],
      ['http://api.internal:3000', true],
    ] as const) {
      expect(loadConfig({ DATA_DIR: 'memory://', PUBLIC_URL: url }).secureCookies, url).toBe(secure);
    }
  });
});

describe('the subscription-analytics script (ANALYTICS_TOKEN, ANALYTICS_SCRIPT_URL)', () => {
  const csp = (env: NodeJS.ProcessEnv) => {
    const config = loadConfig({ DATA_DIR: 'memory://', ...env });
    return htmlCsp({ imgOrigins: [], connectOrigins: [new URL(config.publicUrl).origin], checkout: checkoutSources(config) });
  };
  const scriptSrc = (env: NodeJS.ProcessEnv) => csp(env).split('; ').find((d) => d.startsWith('script-src '));

  it("demo mode: the sandbox's stand-in with a demo token, on this origin (nothing added to the CSP)", () => {
    const config = loadConfig({ DATA_DIR: 'memory://' });
    expect(config.analyticsToken).toBe('demo_analytics');
    expect(config.analyticsScriptUrl).toBe('http://localhost:3000/sandbox/analytics/profitwell.js');
    expect(loadConfig({ DATA_DIR: 'memory://', ANALYTICS_TOKEN: 'pk_mine' }).analyticsToken).toBe('pk_mine');
    expect(scriptSrc({})).toBe("script-src 'self'");
  });

  it("with a real application: none without a token; ProfitWell's script with one, its origin allowed in script-src", () => {
    expect(loadConfig({ ...REAL })).toMatchObject({ analyticsToken: null, analyticsScriptUrl: null });
    expect(scriptSrc({ ...REAL })).toBe("script-src 'self'");
    expect(loadConfig({ ...REAL, ANALYTICS_TOKEN: 'pk_live' })).toMatchObject({ analyticsToken: 'pk_live', analyticsScriptUrl: 'https://public.profitwell.com/js/profitwell.js' });
    expect(scriptSrc({ ...REAL, ANALYTICS_TOKEN: 'pk_live' })).toBe("script-src 'self' https://public.profitwell.com");
    expect(scriptSrc({ ...REAL, ANALYTICS_TOKEN: 'pk_live', ANALYTICS_SCRIPT_URL: 'https://cdn.example.test/js/pw.js' })).toBe("script-src 'self' https://cdn.example.test");
    // Served by this origin: nothing to add.
    expect(scriptSrc({ ...REAL, ANALYTICS_TOKEN: 'pk_live', ANALYTICS_SCRIPT_URL: 'http://localhost:3000/pw.js' })).toBe("script-src 'self'");
  });

  it('refuses a script URL that is not http(s)', () => {
    expect(configError({ ANALYTICS_SCRIPT_URL: 'javascript:alert(1)' })).toMatch(/ANALYTICS_SCRIPT_URL must be an http\(s\) URL/);
  });
});

describe("Paddle.js and Paddle's checkout in the pages' CSP (PADDLE_CLIENT_TOKEN, PADDLE_JS_URL)", () => {
  const directive = (env: NodeJS.ProcessEnv, name: string) => {
    const config = loadConfig({ DATA_DIR: 'memory://', ...env });
    return htmlCsp({ imgOrigins: [], connectOrigins: [new URL(config.publicUrl).origin], checkout: checkoutSources(config) })
      .split('; ')
      .find((d) => d.startsWith(`${name} `));
  };

  it("demo mode: Paddle.js and its checkout are the stand-in's, on this origin: no Paddle origin is allowed", () => {
    expect(loadConfig({ DATA_DIR: 'memory://' }).paddleScriptUrl).toBe('http://localhost:3000/sandbox/paddle/paddle.js');
    expect(directive({}, 'script-src')).toBe("script-src 'self'");
    expect(directive({}, 'frame-src')).toBe("frame-src 'self' http://localhost:3000");
  });

  it("with Paddle configured: Paddle.js's origin in script-src and Paddle's checkout in frame-src; without it, neither", () => {
    expect(directive({ ...REAL }, 'script-src')).toBe("script-src 'self'");
    expect(directive({ ...REAL }, 'frame-src')).toBe("frame-src 'self' http://localhost:3000");
    expect(directive({ ...REAL, PADDLE_CLIENT_TOKEN: 'live_abc' }, 'script-src')).toBe("script-src 'self' https://cdn.paddle.com");
    expect(directive({ ...REAL, PADDLE_CLIENT_TOKEN: 'live_abc' }, 'frame-src')).toBe("frame-src 'self' http://localhost:3000 https://*.paddle.com");
    // Paddle.js from elsewhere: that origin (the checkout is still Paddle's).
    expect(directive({ ...REAL, PADDLE_CLIENT_TOKEN: 'live_abc', PADDLE_JS_URL: 'https://js.example.test/paddle.js' }, 'script-src')).toBe("script-src 'self' https://js.example.test");
    expect(directive({ ...REAL, PADDLE_CLIENT_TOKEN: 'live_abc', PADDLE_JS_URL: 'https://js.example.test/paddle.js' }, 'frame-src')).toContain('https://*.paddle.com');
  });
});

describe("FastSpring's secure payload key (FASTSPRING_PRIVATE_KEY)", () => {
  it('takes an RSA private key of 2048 bits or more in PEM (newlines may be written \\n); demo mode makes one', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const escaped = privateKey.trim().replace(/\n/g, '\\n');
    const key = loadConfig({ ...REAL, FASTSPRING_PRIVATE_KEY: escaped }).billing.fastspring.securePayloadKey;
    expect(key?.asymmetricKeyType).toBe('rsa');
    expect(loadConfig({ ...REAL }).billing.fastspring.securePayloadKey).toBeNull();
    expect(loadConfig({ DATA_DIR: 'memory://' }).billing.fastspring.securePayloadKey?.asymmetricKeyDetails?.modulusLength).toBe(2048);
    // Never in a serialised configuration.
    expect(JSON.stringify(loadConfig({ ...REAL, FASTSPRING_PRIVATE_KEY: escaped }))).not.toContain('PRIVATE KEY');
  });

  it('refuses anything else with a clear message', () => {
    expect(configError({ FASTSPRING_PRIVATE_KEY: 'not a key' })).toMatch(/FASTSPRING_PRIVATE_KEY must be an RSA private key in PEM/);
    const small = generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    expect(configError({ FASTSPRING_PRIVATE_KEY: small.privateKey })).toMatch(/at least 2048 bits/);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256', privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    expect(configError({ FASTSPRING_PRIVATE_KEY: ec.privateKey })).toMatch(/at least 2048 bits/);
  });
});

describe('loadConfig refuses a bad configuration with a clear message', () => {
  it('reports every invalid variable at once', () => {
    const message = configError({ PORT: '99999', LOG_LEVEL: 'loud', REDIS_URL: 'http://x', REDIS_TIMEOUT_MS: '0', DATABASE_URL: 'mysql://x' });
    expect(message).toMatch(/^Invalid configuration:/);
    for (const name of ['PORT', 'LOG_LEVEL', 'REDIS_URL', 'REDIS_TIMEOUT_MS', 'DATABASE_URL']) expect(message).toContain(`${name}:`);
  });

  it.each([
    [{ PUBLIC_URL: 'localhost:3000' }, /PUBLIC_URL must be an http\(s\) URL/],
    [{ PUBLIC_URL: 'https://api.tickety.gg/v1' }, /PUBLIC_URL must be an origin/],
    [{ DASHBOARD_ORIGINS: 'https://tickety.gg/app' }, /DASHBOARD_ORIGINS: "https:\/\/tickety.gg\/app" must be an origin/],
    [{ DASHBOARD_ORIGINS: 'not a url' }, /DASHBOARD_ORIGINS: "not a url" is not a URL/],
    [{ DASHBOARD_ORIGINS: ' , ' }, /at least one origin/],
    [{ SESSION_IDLE_SECONDS: '7200', SESSION_MAX_AGE_SECONDS: '3600' }, /SESSION_IDLE_SECONDS must not exceed/],
    [{ SESSION_IDLE_SECONDS: '10' }, /SESSION_IDLE_SECONDS: must be a whole number from 60/],
    [{ PORT: 'eighty' }, /PORT: must be a whole number/],
    [{ DISCORD_CLIENT_ID: 'my-app' }, /DISCORD_CLIENT_ID: must be a Discord application id/],
    [{ DATABASE_SCHEMA: 'Robert"; DROP TABLE' }, /DATABASE_SCHEMA: must be a plain lower-case identifier/],
    [{ STAFF_OWNER_IDS: '123,abc' }, /STAFF_OWNER_IDS: must be a comma-separated list of Discord user ids/],
    [{ DISCORD_TIMEOUT_MS: '5' }, /DISCORD_TIMEOUT_MS: must be a whole number from 100/],
    [{ DOCS_URL: 'javascript:alert(1)' }, /DOCS_URL must be an http\(s\) URL/],
    [{ REMOTE_STAFF_URL: '/remotes/staff/mf-manifest.json' }, /REMOTE_STAFF_URL must be an http\(s\) URL/],
  ])('%o', (env, message) => {
    expect(configError(env as Record<string, string>)).toMatch(message);
  });

  it('validates the plan catalogue', () => {
    const dir = tempDir();
    const file = join(dir, 'plans.json');
    writeFileSync(file, '[{"id":"Free Plan"}]');
    expect(configError({ PLANS_FILE: file })).toMatch(/^PLANS_FILE: .*plans\.json: 0\.id must be lower-case/);
    writeFileSync(file, 'not json');
    expect(configError({ PLANS_FILE: file })).toMatch(/cannot read .* as JSON/);
    expect(configError({ PLANS_FILE: join(dir, 'missing.json') })).toMatch(/cannot read/);
  });
});

describe('the demo token-encryption key', () => {
  it('is generated once beside the data folder (mode 0600) and reused', () => {
    const dir = tempDir();
    const dataDir = join(dir, 'pglite');
    const first = loadConfig({ DATA_DIR: dataDir });
    const file = join(dir, 'token-encryption.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(first.tokenEncryptionKey)).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir }).tokenEncryptionKey.equals(first.tokenEncryptionKey)).toBe(true);
  });

  it('refuses a corrupt key file instead of silently replacing it (sessions would stop decrypting)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'token-encryption.key'), 'short\n');
    expect(configError({ DATA_DIR: join(dir, 'pglite') })).toMatch(/does not hold a 32-byte base64 key/);
  });

  it('is random per start for memory:// databases', () => {
    expect(loadConfig({ DATA_DIR: 'memory://' }).tokenEncryptionKey.equals(loadConfig({ DATA_DIR: 'memory://' }).tokenEncryptionKey)).toBe(false);
  });
});

describe('payment providers over the network', () => {
  it('refuses a provider API over plain http to another machine outside demo mode; https and localhost are fine', () => {
    for (const name of ['PADDLE_API_URL', 'FASTSPRING_API_URL', 'CHARGEBEE_API_URL']) {
      expect(() => loadApiConfig({ DATA_DIR: 'memory://', ...REAL, [name]: 'http://billing.example.com/api' }), name).toThrow(new RegExp(`${name} must be an https URL`));
      expect(loadApiConfig({ DATA_DIR: 'memory://', ...REAL, [name]: 'https://billing.example.com/api' }).demo).toBe(false);
      expect(loadApiConfig({ DATA_DIR: 'memory://', ...REAL, [name]: 'http://127.0.0.1:9100/api' }).demo).toBe(false);
    }
  });
});

describe('transcript storage (BLOB_STORE, S3_*)', () => {
  const S3 = { BLOB_STORE: 's3', S3_BUCKET: 'tickety-transcripts', S3_ACCESS_KEY_ID: 'AKIDEXAMPLE', S3_SECRET_ACCESS_KEY: 'very-secret-value' };

  it('keeps transcripts in the database unless BLOB_STORE=s3', () => {
    expect(loadConfig({ DATA_DIR: 'memory://' }).blobStore).toEqual({ kind: 'database' });
    expect(loadConfig({ DATA_DIR: 'memory://', BLOB_STORE: 'database' }).blobStore).toEqual({ kind: 'database' });
  });

  it('reads the bucket, its endpoint (path-style with one, unless told) and credentials', () => {
    expect(loadConfig({ DATA_DIR: 'memory://', ...S3, S3_ENDPOINT: 'http://127.0.0.1:9000/' }).blobStore).toEqual({
      kind: 's3',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      bucket: 'tickety-transcripts',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'very-secret-value',
      forcePathStyle: true,
      timeoutMs: 15_000,
    });
    const r2 = loadConfig({ DATA_DIR: 'memory://', ...S3, S3_ENDPOINT: 'https://acc.r2.cloudflarestorage.com', S3_REGION: 'auto', S3_FORCE_PATH_STYLE: 'false', S3_TIMEOUT_MS: '5000' }).blobStore;
    expect(r2).toMatchObject({ region: 'auto', forcePathStyle: false, timeoutMs: 5000 });
    expect(loadConfig({ DATA_DIR: 'memory://', ...S3 }).blobStore).toMatchObject({ endpoint: null, forcePathStyle: false });
  });

  it('refuses what is missing, malformed or set without BLOB_STORE=s3, naming it and never the secret', () => {
    expect(configError({ BLOB_STORE: 's3', S3_BUCKET: 'b-1' })).toMatch(/BLOB_STORE=s3 needs S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/);
    expect(configError({ BLOB_STORE: 'disk' })).toMatch(/BLOB_STORE: must be database or s3/);
    expect(configError({ ...S3, S3_BUCKET: 'Not_A_Bucket' })).toMatch(/S3_BUCKET: must be a bucket name/);
    expect(configError({ ...S3, S3_ENDPOINT: 'minio:9000' })).toMatch(/S3_ENDPOINT must be an http\(s\) URL/);
    expect(configError({ ...S3, S3_ENDPOINT: 'http://127.0.0.1:9000/?x=1' })).toMatch(/S3_ENDPOINT must be an origin/);
    expect(configError({ ...S3, S3_FORCE_PATH_STYLE: 'maybe' })).toMatch(/S3_FORCE_PATH_STYLE/);
    const stray = configError({ S3_BUCKET: 'b-1', S3_SECRET_ACCESS_KEY: 'very-secret-value' });
    expect(stray).toMatch(/S3_BUCKET, S3_SECRET_ACCESS_KEY are set but BLOB_STORE is not s3/);
    expect(stray).not.toContain('very-secret-value');
  });
});
