import { ApiError } from '@tickety/api-contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiHttpError } from '../../lib/errors';
import { CSRF_EXEMPT } from '../../plugins/app/security';
import { PaddleEnvelope, paddleInboxEvent, verifyPaddleSignature } from '../../services/billing/paddle';

/** A provider's notification is small; anything larger is not one. */
export const WEBHOOK_BODY_MAX = 1024 * 1024;

const errors = { 400: ApiError, 401: ApiError, 413: ApiError, 415: ApiError, 429: ApiError, 503: ApiError };
const Received = z.object({ received: z.literal(true), duplicate: z.boolean() });

/**
 * Payment providers' webhooks (docs/api.md, "Webhooks"). The body is kept as the bytes that arrived
 * (signatures cover them exactly) and parsed only once verified. A verified event is stored once in
 * the inbox before the answer (so a 200 means it is durable) and applied by the inbox's worker; a
 * repeated one is answered 200 too (the provider then stops sending it). Refusals use the catalogue:
 * 401 code 1022 (signature), 400 code 1001 (not an event), 413, 415.
 */
export default async function webhookRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Providers are not browsers: no CSRF check (their proof is the signature).
  app.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), ...CSRF_EXEMPT };
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_MAX }, async (_req: FastifyRequest, body: Buffer) => body);

  app.post('/paddle', { bodyLimit: WEBHOOK_BODY_MAX, schema: { response: { 200: Received, ...errors } } }, async (req) => {
    const raw = req.body;
    if (!Buffer.isBuffer(raw)) throw new ApiHttpError('UNSUPPORTED_MEDIA_TYPE', { message: 'A Paddle notification is a JSON body (content-type: application/json).' });
    const { webhookSecrets, toleranceSeconds } = app.config.billing.paddle;
    if (webhookSecrets.length === 0) throw new ApiHttpError('WEBHOOK_REJECTED', { message: 'Paddle webhooks are not configured on this server (PADDLE_WEBHOOK_SECRETS).' });
    const header = req.headers['paddle-signature'];
    const refused = verifyPaddleSignature(raw, Array.isArray(header) ? header[0] : header, webhookSecrets, app.clock(), toleranceSeconds);
    if (refused) {
      req.log.info({ reason: refused }, 'paddle webhook refused');
      throw new ApiHttpError('WEBHOOK_REJECTED', { message: `The Paddle signature could not be verified: ${refused}.` });
    }
    const envelope = PaddleEnvelope.safeParse(parseJson(raw));
    if (!envelope.success) throw new ApiHttpError('VALIDATION_FAILED', { message: `Not a Paddle notification: ${envelope.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}` });
    const { stored } = await app.webhookInbox.store('paddle', [paddleInboxEvent(envelope.data)]);
    if (stored.length > 0) app.inboxWorker.nudge();
    return { received: true as const, duplicate: stored.length === 0 };
  });
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'), (k, v) => (k === '__proto__' || k === 'constructor' ? undefined : v));
  } catch {
    throw new ApiHttpError('VALIDATION_FAILED', { message: 'The body is not valid JSON.' });
  }
}
