import type { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { DEMO_DISCORD } from '../../demo/demo';
import { loggerOptions } from '../../src/app';
import { loadConfig } from '../../src/config';
import { redactUrl } from '../../src/lib/log';
import { testEnv } from '../helpers/app';
import { LogCapture } from '../helpers/logs';

describe('redactUrl', () => {
  it('hides OAuth codes, states, tokens and signatures in query strings', () => {
    expect(redactUrl('/api/auth/callback?code=abc123&state=xyz')).toBe('/api/auth/callback?code=%5Bredacted%5D&state=%5Bredacted%5D');
    expect(redactUrl('/x?access_token=1&refresh_token=2&token=3&code_verifier=4&client_secret=5&hm=6')).not.toMatch(/=[1-6](&|$)/);
    expect(redactUrl('/x?CODE=abc&State=def')).not.toMatch(/abc|def/);
  });

  it('keeps everything else as it is', () => {
    expect(redactUrl('/api/auth/@me')).toBe('/api/auth/@me');
    expect(redactUrl('/api/guilds/1?page=2')).toBe('/api/guilds/1?page=2');
    expect(redactUrl('/x?error=access_denied&state=s')).toBe('/x?error=access_denied&state=%5Bredacted%5D');
  });

  it('hides a legacy transcript’s signature (the last segment of its address)', () => {
    const sig = 'a'.repeat(64);
    const out = redactUrl(`/api/transcripts/v1/1/2/t.html/6a/69/${sig}?x=1`);
    expect(out).toBe('/api/transcripts/v1/1/2/t.html/6a/69/[redacted]?x=1');
    expect(redactUrl(`/api/transcripts/v1/1/2/t.html/6a/69/${sig}`)).not.toContain(sig);
    // The dashboard's page has the same address without /api (the all-in-one server logs it too).
    expect(redactUrl(`/transcript/v1/1/2/t.html/6a/69/${sig}`)).toBe('/transcript/v1/1/2/t.html/6a/69/[redacted]');
  });

  it('redacts every occurrence and encoded names', () => {
    const out = redactUrl('/x?code=a&code=b&co%64e=c');
    expect(out).not.toMatch(/=a|=b|=c/);
  });
});

describe('loggerOptions', () => {
  it('logs requests with redacted URLs and no headers or cookies', async () => {
    const logs = new LogCapture();
    const config = loadConfig(testEnv({ LOG_LEVEL: 'info' }), DEMO_DISCORD);
    const app = Fastify({ logger: loggerOptions(config, logs) });
    app.get('/cb', async (req) => {
      req.log.info({ headers: req.headers }, 'headers logged by mistake');
      return { ok: true };
    });
    await app.inject({
      method: 'GET',
      url: '/cb?code=secret-code&state=secret-state',
      headers: { cookie: 'tickety_session=secret-cookie', authorization: 'Bearer secret-bearer' },
    });
    await app.close();
    const text = logs.text();
    expect(text).toContain('/cb?code=%5Bredacted%5D');
    for (const secret of ['secret-code', 'secret-state', 'secret-cookie', 'secret-bearer']) expect(text).not.toContain(secret);
    expect(logs.messages('headers logged by mistake')).toHaveLength(1);
  });

  it('is silent in tests unless asked, info elsewhere', () => {
    expect(loadConfig(testEnv({ LOG_LEVEL: undefined }), DEMO_DISCORD).logLevel).toBe('silent');
    expect(loadConfig({ DATA_DIR: 'memory://' }, DEMO_DISCORD).logLevel).toBe('info');
  });

  it('writes to stdout when no stream is given', () => {
    const options = loggerOptions(loadConfig(testEnv(), DEMO_DISCORD), undefined) as { stream?: Writable };
    expect(options.stream).toBeUndefined();
  });
});
