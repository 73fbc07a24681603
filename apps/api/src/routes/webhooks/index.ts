import { ApiError, WebhookReceivedAnswer } from '@tickety/api-contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiHttpError } from '../../lib/errors';
import { parseUntrustedJson } from '../../lib/json-body';
import { CSRF_EXEMPT } from '../../plugins/app/security';
import { ChargebeeEvent, chargebeeInboxEvent, verifyChargebeeAuth } from '../../services/billing/chargebee';
import { DiscordWebhookBody, discordInboxEvent, discordPublicKey, verifyDiscordSignature } from '../../services/billing/discord';
import { FastspringBatch, fastspringInboxEvent, verifyFastspringSignature } from '../../services/billing/fastspring';
import { PaddleEnvelope, paddleInboxEvent, verifyPaddleSignature } from '../../services/billing/paddle';

/** A provider's notification is small; anything larger is not one. */
const WEBHOOK_BODY_MAX = 1024 * 1024;

const errors = { 400: ApiError, 401: ApiError, 413: ApiError, 415: ApiError, 429: ApiError, 503: ApiError };

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
  // No body is read for a request without the provider's proof: refused before its (up to 1 MiB) body
  // arrives, so unsigned floods cost no buffering or hashing. Decided on the matched route.
  const PROOF: Record<string, { header: string; name: string }> = {
    paddle: { header: 'paddle-signature', name: 'Paddle-Signature' },
    fastspring: { header: 'x-fs-signature', name: 'X-FS-Signature' },
    chargebee: { header: 'authorization', name: 'Authorization' },
    discord: { header: 'x-signature-ed25519', name: 'X-Signature-Ed25519' },
  };
  app.addHook('onRequest', async (req) => {
    const provider = (req.routeOptions.url ?? '').split('/').pop() ?? '';
    const proof = PROOF[provider];
    if (proof && !req.headers[proof.header]) {
      throw new ApiHttpError('WEBHOOK_REJECTED', { message: `The webhook could not be verified: the ${proof.name} header is missing.` });
    }
    if (provider === 'chargebee' && app.config.billing.chargebee.webhookCredentials.length > 0) {
      const refused = verifyChargebeeAuth(header(req, 'authorization'), app.config.billing.chargebee.webhookCredentials);
      if (refused) {
        req.log.info({ reason: refused }, 'chargebee webhook refused');
        throw new ApiHttpError('WEBHOOK_REJECTED', { message: `The Chargebee webhook's credentials were refused: ${refused}.` });
      }
    }
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_MAX }, async (_req: FastifyRequest, body: Buffer) => body);

  app.post('/paddle', { bodyLimit: WEBHOOK_BODY_MAX, schema: { response: { 200: WebhookReceivedAnswer, ...errors } } }, async (req) => {
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

  // FastSpring: several events per POST. 200 means every event of it is processed (stored); 202 with
  // the stored ids, one per line, means only those (FastSpring sends the others again). An event that
  // is not one is left out that way; a body that is no batch at all is refused whole.
  app.post('/fastspring', { bodyLimit: WEBHOOK_BODY_MAX, schema: { response: { 200: WebhookReceivedAnswer, 202: z.string(), ...errors } } }, async (req, reply) => {
    const raw = rawBody(req, 'FastSpring');
    const { webhookSecrets } = app.config.billing.fastspring;
    if (webhookSecrets.length === 0) throw new ApiHttpError('WEBHOOK_REJECTED', { message: 'FastSpring webhooks are not configured on this server (FASTSPRING_WEBHOOK_SECRETS).' });
    const refused = verifyFastspringSignature(raw, header(req, 'x-fs-signature'), webhookSecrets);
    if (refused) {
      req.log.info({ reason: refused }, 'fastspring webhook refused');
      throw new ApiHttpError('WEBHOOK_REJECTED', { message: `The FastSpring signature could not be verified: ${refused}.` });
    }
    const body = parseJson(raw) as { events?: unknown };
    if (!body || typeof body !== 'object' || !Array.isArray(body.events)) throw invalid('FastSpring', [{ path: ['events'], message: 'must be a list of events' }]);
    const good = [];
    const bad: string[] = [];
    for (const [i, event] of body.events.entries()) {
      const parsed = FastspringBatch.shape.events.element.safeParse(event);
      if (parsed.success) good.push(parsed.data);
      else bad.push(`events.${i}: ${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`);
    }
    if (good.length === 0) throw invalid('FastSpring', [{ path: ['events'], message: bad.join(' | ') || 'no events' }]);
    // Each event is stored on its own (they still share one INSERT: the inbox writes the calls of
    // one moment together), so one the database refuses is left out and FastSpring sends only it again.
    const results = await Promise.allSettled(good.map((e) => app.webhookInbox.store('fastspring', [fastspringInboxEvent(e)])));
    const kept = good.filter((_, i) => results[i]!.status === 'fulfilled');
    const fresh = results.some((r) => r.status === 'fulfilled' && r.value.stored.length > 0);
    if (fresh) app.inboxWorker.nudge();
    if (kept.length === 0) throw (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason;
    if (bad.length > 0 || kept.length < good.length) {
      req.log.warn(
        { refused: bad, failed: good.filter((_, i) => results[i]!.status === 'rejected').map((e) => e.id) },
        'fastspring webhook: events left out (FastSpring sends them again)',
      );
      return reply.code(202).type('text/plain; charset=utf-8').send(kept.map((e) => e.id).join('\n'));
    }
    return { received: true as const, duplicate: !fresh };
  });

  // Chargebee: one event per POST, protected by HTTP basic authentication.
  app.post('/chargebee', { bodyLimit: WEBHOOK_BODY_MAX, schema: { response: { 200: WebhookReceivedAnswer, ...errors } } }, async (req) => {
    const { webhookCredentials } = app.config.billing.chargebee;
    if (webhookCredentials.length === 0) throw new ApiHttpError('WEBHOOK_REJECTED', { message: 'Chargebee webhooks are not configured on this server (CHARGEBEE_WEBHOOK_CREDENTIALS).' });
    const refused = verifyChargebeeAuth(header(req, 'authorization'), webhookCredentials);
    if (refused) {
      req.log.info({ reason: refused }, 'chargebee webhook refused');
      throw new ApiHttpError('WEBHOOK_REJECTED', { message: `The Chargebee webhook's credentials were refused: ${refused}.` });
    }
    const raw = rawBody(req, 'Chargebee');
    const event = ChargebeeEvent.safeParse(parseJson(raw));
    if (!event.success) throw invalid('Chargebee', event.error.issues);
    if (event.data.api_version && event.data.api_version !== 'v2') throw invalid('Chargebee', [{ path: ['api_version'], message: `must be v2 (this endpoint reads API v2 events, not ${event.data.api_version})` }]);
    const { stored } = await app.webhookInbox.store('chargebee', [chargebeeInboxEvent(event.data)]);
    if (stored.length > 0) app.inboxWorker.nudge();
    return { received: true as const, duplicate: stored.length === 0 };
  });

  // Discord's Webhook Events: Ed25519 over the timestamp and the body; a PING and every event are
  // answered 204 with no body (Discord's rule), a bad signature 401 (Discord probes for it).
  const discordKeys = app.config.billing.discord.publicKeys.map(discordPublicKey);
  app.post('/discord', { bodyLimit: WEBHOOK_BODY_MAX, schema: { response: { 204: z.null(), ...errors } } }, async (req, reply) => {
    if (discordKeys.length === 0) throw new ApiHttpError('WEBHOOK_REJECTED', { message: 'Discord webhook events are not configured on this server (DISCORD_PUBLIC_KEYS).' });
    const raw = rawBody(req, 'Discord');
    const refused = verifyDiscordSignature(raw, header(req, 'x-signature-ed25519'), header(req, 'x-signature-timestamp'), discordKeys, app.clock(), app.config.billing.discord.toleranceSeconds);
    if (refused) {
      req.log.info({ reason: refused }, 'discord webhook refused');
      throw new ApiHttpError('WEBHOOK_REJECTED', { message: `The Discord signature could not be verified: ${refused}.` });
    }
    const body = DiscordWebhookBody.safeParse(parseJson(raw));
    if (!body.success) throw invalid('Discord', body.error.issues);
    if (body.data.application_id !== app.config.discord.clientId) throw invalid('Discord', [{ path: ['application_id'], message: 'is not this application' }]);
    if (body.data.type === 1) {
      const { stored } = await app.webhookInbox.store('discord', [discordInboxEvent(body.data.event)]);
      if (stored.length > 0) app.inboxWorker.nudge();
    }
    return reply.code(204).send(null);
  });
}

const header = (req: FastifyRequest, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function rawBody(req: FastifyRequest, provider: string): Buffer {
  if (!Buffer.isBuffer(req.body)) throw new ApiHttpError('UNSUPPORTED_MEDIA_TYPE', { message: `A ${provider} webhook is a JSON body (content-type: application/json).` });
  return req.body;
}

function invalid(provider: string, issues: Array<{ path: PropertyKey[]; message: string }>): ApiHttpError {
  return new ApiHttpError('VALIDATION_FAILED', { message: `Not a ${provider} notification: ${issues.map((i) => `${i.path.map(String).join('.') || 'body'}: ${i.message}`).join('; ')}` });
}

function parseJson(raw: Buffer): unknown {
  return parseUntrustedJson(raw.toString('utf8'));
}
