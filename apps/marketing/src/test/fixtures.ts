import type { StatusResponse } from '@tickety/api-contract';
import { TEST_PLANS } from '@tickety/shared/testing';

/** The plan catalogue fixture (one definition, in @tickety/shared/testing). */
export const PLANS = TEST_PLANS;

export function statusFixture(now = Date.now(), over: Partial<StatusResponse> = {}): StatusResponse {
  return {
    status: 'degraded',
    checkedAt: new Date(now).toISOString(),
    services: [
      { name: 'api', status: 'operational', latencyMs: 0 },
      { name: 'database', status: 'degraded', latencyMs: 1250, reason: 'database_slow', detail: 'The database is answering slowly.' },
      { name: 'redis', status: 'operational', latencyMs: 1 },
      { name: 'bot', status: 'degraded', latencyMs: null, reason: 'shards_not_ready', detail: '1 of 2 shards are not ready.' },
    ],
    shards: [
      { id: 0, state: 'ready', latencyMs: 42, guilds: 1520, lastHeartbeat: new Date(now - 12_000).toISOString() },
      { id: 1, state: 'reconnecting', latencyMs: null, guilds: 1398, lastHeartbeat: new Date(now - 5 * 60_000).toISOString() },
    ],
    ...over,
  };
}
