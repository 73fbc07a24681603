import type { Plan, StatusResponse } from '@tickety/api-contract';

/** The plan catalogue as apps/api/config/plans.json ships it (trimmed features). */
export const PLANS: Plan[] = [
  {
    id: 'free',
    name: 'Free',
    priceMonthly: 0,
    priceYearly: 0,
    currency: 'USD',
    highlight: false,
    features: ['3 ticket panels', 'HTML transcripts'],
    limits: { panels: 3, servers: 1 },
  },
  {
    id: 'premium',
    name: 'Premium',
    priceMonthly: 4.99,
    priceYearly: 49.99,
    currency: 'USD',
    highlight: true,
    features: ['Everything in Free', 'Support hours with time zones'],
    limits: { panels: 50, servers: 1 },
  },
];

export function statusFixture(now = Date.now(), over: Partial<StatusResponse> = {}): StatusResponse {
  return {
    status: 'degraded',
    checkedAt: new Date(now).toISOString(),
    services: [
      { name: 'api', status: 'operational', latencyMs: 0 },
      { name: 'database', status: 'degraded', latencyMs: 1250, detail: 'The database is answering slowly.' },
      { name: 'bot', status: 'degraded', latencyMs: null, detail: '1 of 2 shards are not ready.' },
    ],
    shards: [
      { id: 0, state: 'ready', latencyMs: 42, guilds: 1520, lastHeartbeat: new Date(now - 12_000).toISOString() },
      { id: 1, state: 'reconnecting', latencyMs: null, guilds: 1398, lastHeartbeat: new Date(now - 5 * 60_000).toISOString() },
    ],
    ...over,
  };
}
