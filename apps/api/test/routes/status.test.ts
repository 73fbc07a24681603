import { StatusResponse } from '@tickety/api-contract';
import { describe, expect, it } from 'vitest';
import { SHARD_STALE_MS } from '../../src/services/system-health';
import { useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { SECOND } from '../helpers/clock';
import { databases } from '../helpers/db';

describe.each(databases())('GET /api/status on $name', (database) => {
  const t = useTestApp(database);

  async function status(): Promise<StatusResponse> {
    const res = await new Browser(t.app).get('/api/status');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    return StatusResponse.parse(res.json());
  }

  it('reports the API and the database, and no shards before the bot reports', async () => {
    const body = await status();
    expect(body.services.map((s) => s.name)).toEqual(['api', 'database']);
    expect(body.services[0]!.status).toBe('operational');
    expect(['operational', 'degraded']).toContain(body.services[1]!.status);
    expect(body.services[1]!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(body.shards).toEqual([]);
    expect(body.checkedAt).toBe(new Date(t.clock.now).toISOString());
  });

  it('reports shards from their heartbeats; a stale or not-ready shard degrades the bot', async () => {
    const now = t.clock.now;
    const at = (ms: number) => new Date(ms).toISOString();
    await t.db.query(
      `INSERT INTO bot_shards (bot_id, id, state, latency_ms, guilds, last_heartbeat) VALUES
         ($2, 0, 'ready', 41, 1200, $1::timestamptz), ($2, 1, 'ready', null, 900, $1::timestamptz)`,
      [at(now - 10 * SECOND), t.config.discord.clientId],
    );
    let body = await status();
    expect(body.shards).toEqual([
      { id: 0, state: 'ready', latencyMs: 41, guilds: 1200, lastHeartbeat: at(now - 10 * SECOND) },
      { id: 1, state: 'ready', latencyMs: null, guilds: 900, lastHeartbeat: at(now - 10 * SECOND) },
    ]);
    expect(body.services.find((s) => s.name === 'bot')).toEqual({ name: 'bot', status: 'operational', latencyMs: null });

    // Shard 1 stops sending heartbeats.
    t.clock.advance(SHARD_STALE_MS);
    await t.db.query(`UPDATE bot_shards SET last_heartbeat = $1::timestamptz WHERE id = 0`, [at(t.clock.now)]);
    body = await status();
    expect(body.services.find((s) => s.name === 'bot')).toMatchObject({ status: 'degraded', detail: '1 of 2 shards are not ready.' });
    expect(body.status).toBe('degraded');

    await t.db.query(`UPDATE bot_shards SET state = 'reconnecting', last_heartbeat = $1::timestamptz`, [at(t.clock.now)]);
    body = await status();
    expect(body.services.find((s) => s.name === 'bot')?.status).toBe('down');
    expect(body.status).toBe('degraded');

    await t.db.query(`UPDATE bot_shards SET state = 'ready'`);
    expect((await status()).services.find((s) => s.name === 'bot')?.status).toBe('operational');
  });
});
