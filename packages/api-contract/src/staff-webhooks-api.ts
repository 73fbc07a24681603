import { BillingProvider } from './billing-api';
import { z } from './zod-setup';

/** PostgreSQL's bigint: a larger id is no event's (and must be refused, not sent to the database). */
const BIGINT_MAX = 9_223_372_036_854_775_807n;
const eventId = (message: string) =>
  z
    .string()
    .regex(/^\d{1,19}$/, message)
    .refine((value) => /^\d{1,19}$/.test(value) && BigInt(value) <= BIGINT_MAX, message);

/** One provider's webhook queue on the System page. */
export const StaffWebhookQueue = z.object({
  provider: BillingProvider,
  pending: z.number().int(),
  /** Pending events that failed at least once (retrying with backoff). */
  failing: z.number().int(),
  dead: z.number().int(),
  /** ISO time the oldest pending event was received; null when none waits. */
  oldestPendingAt: z.string().nullable(),
});
export type StaffWebhookQueue = z.infer<typeof StaffWebhookQueue>;

/** An event that failed every attempt. */
export const StaffDeadLetter = z.object({
  id: z.string(),
  provider: BillingProvider,
  type: z.string(),
  key: z.string(),
  subject: z.string().nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  receivedAt: z.string(),
});
export type StaffDeadLetter = z.infer<typeof StaffDeadLetter>;

/** `GET /api/staff/webhooks`: every provider's queue, and the dead letters newest first, a page at a time. */
export const StaffWebhooksAnswer = z.object({ queues: z.array(StaffWebhookQueue), dead: z.array(StaffDeadLetter), nextCursor: z.string().nullable() });
export type StaffWebhooksAnswer = z.infer<typeof StaffWebhooksAnswer>;

export const StaffWebhooksQuery = z.object({
  provider: BillingProvider.optional(),
  /** The last dead letter of the previous page (`nextCursor`). */
  cursor: eventId('must be a cursor from the previous page').optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type StaffWebhooksQuery = z.infer<typeof StaffWebhooksQuery>;

export const StaffWebhookReplayParams = z.object({ id: eventId('must be a webhook event id') });

/** `POST /api/staff/webhooks/:id/replay`: the dead letter is queued again. */
export const StaffWebhookReplayAnswer = z.object({ replayed: z.literal(true) });
export type StaffWebhookReplayAnswer = z.infer<typeof StaffWebhookReplayAnswer>;
