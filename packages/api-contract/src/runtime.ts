import { z } from './zod-setup';

/** One entry of `GET /api/plans`. Prices in major units of `currency`; null = not sold that way. */
export const Plan = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and dashes'),
  name: z.string().min(1),
  priceMonthly: z.number().nonnegative().nullable(),
  priceYearly: z.number().nonnegative().nullable(),
  currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as USD'),
  highlight: z.boolean(),
  features: z.array(z.string().min(1)),
  limits: z.object({
    panels: z.number().int().positive(),
    servers: z.number().int().positive(),
    /** The longest Statistics range, in days (a plan without it: 7). */
    statisticsDays: z.number().int().min(1).max(366).default(7),
    /** Whether Statistics offers custom ranges and CSV export. */
    statisticsExport: z.boolean().default(false),
    /** Tags (canned replies) a server may have (a plan without it: 50). */
    tags: z.number().int().min(1).max(500).default(50),
    /** Blocklist entries a server may have (a plan without it: 100). */
    blocklist: z.number().int().min(1).max(1000).default(100),
  }),
  /**
   * The providers' price, product or SKU ids that sell this plan (webhooks name them; billing maps
   * them back to the plan), with the billing interval each one charges.
   */
  providerPrices: z
    .array(z.object({ provider: z.enum(['paddle', 'fastspring', 'discord', 'chargebee']), id: z.string().min(1).max(200), interval: z.enum(['month', 'year']) }).strict())
    .default([]),
});
export type Plan = z.infer<typeof Plan>;

export const PlanCatalogue = z
  .array(Plan)
  .min(1)
  .refine((plans) => new Set(plans.map((p) => p.id)).size === plans.length, 'plan ids must be unique');
export type PlanCatalogue = z.infer<typeof PlanCatalogue>;

export const HealthState = z.enum(['operational', 'degraded', 'down']);
export type HealthState = z.infer<typeof HealthState>;

/**
 * Why a service is not operational, for a page to say in its reader's language (`detail` is the same
 * in English, for API clients): the database slow or not answering, Redis not answering, shards not
 * ready (the counts are in `shards`), or the check not finished in time (the state is unknown).
 */
export const StatusReason = z.enum(['database_slow', 'database_down', 'redis_down', 'shards_not_ready', 'check_timeout']);
export type StatusReason = z.infer<typeof StatusReason>;

/** `GET /api/status`. */
export const StatusResponse = z.object({
  status: HealthState,
  checkedAt: z.string(),
  services: z.array(
    z.object({
      name: z.string(),
      status: HealthState,
      latencyMs: z.number().nullable(),
      detail: z.string().optional(),
      reason: StatusReason.optional(),
    }),
  ),
  shards: z.array(
    z.object({
      id: z.number().int(),
      state: z.string(),
      latencyMs: z.number().nullable(),
      guilds: z.number().int(),
      lastHeartbeat: z.string(),
    }),
  ),
});
export type StatusResponse = z.infer<typeof StatusResponse>;

/** `GET /api/health` (liveness: the process answers; no dependency is checked). */
export const HealthResponse = z.object({ status: z.literal('ok'), uptimeSeconds: z.number() });
export type HealthResponse = z.infer<typeof HealthResponse>;

/** `GET /api/health/ready`: the database answered (its round trip in ms) and the process is not shedding load. */
export const ReadyResponse = z.object({ status: z.literal('ready'), database: z.object({ latencyMs: z.number() }) });
export type ReadyResponse = z.infer<typeof ReadyResponse>;
