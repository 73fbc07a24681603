import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jsonBody } from '../../kit/body';
import { queryOf } from '../../kit/http';
import type { SandboxEngine } from '../engine';
import { discordError, refuseBody, unauthorized } from '../errors';
import { callerOf } from '../rest';
import { compareIds, SNOWFLAKE } from '../util';
import { type EntitlementRecord, type MonetizationEngine, MonetizationError } from './engine';

/** Discord's 400 Invalid Form Body with one field's error. */
function invalidField(reply: FastifyReply, field: string, code: string, message: string) {
  return reply.code(400).send({ message: 'Invalid Form Body', code: 50035, errors: { [field]: { _errors: [{ code, message }] } } });
}

function sendError(reply: FastifyReply, err: unknown) {
  if (err instanceof MonetizationError) {
    if (err.code === 0 && err.status === 404) return discordError(reply, 404, 0, '404: Not Found');
    return discordError(reply, err.status, err.code, err.message);
  }
  throw err;
}

/** Query parsing that answers Discord's errors itself; null when answered. */
class Query {
  readonly params: URLSearchParams;
  constructor(
    req: FastifyRequest,
    private readonly reply: FastifyReply,
  ) {
    this.params = queryOf(req.url);
  }

  snowflake(name: string): string | null | false {
    const v = this.params.get(name);
    if (v === null) return null;
    if (!SNOWFLAKE.test(v)) {
      invalidField(this.reply, name, 'NUMBER_TYPE_COERCE', `Value "${v.slice(0, 100)}" is not snowflake.`);
      return false;
    }
    return v;
  }

  int(name: string, fallback: number, min: number, max: number): number | false {
    const v = this.params.get(name);
    if (v === null) return fallback;
    if (!/^-?\d{1,10}$/.test(v)) {
      invalidField(this.reply, name, 'NUMBER_TYPE_COERCE', `Value "${v.slice(0, 100)}" is not int.`);
      return false;
    }
    const n = Number(v);
    if (n < min) {
      invalidField(this.reply, name, 'NUMBER_TYPE_MIN', `Int value should be greater than or equal to ${min}.`);
      return false;
    }
    if (n > max) {
      invalidField(this.reply, name, 'NUMBER_TYPE_MAX', `Int value should be less than or equal to ${max}.`);
      return false;
    }
    return n;
  }

  /** Discord's boolean query strings: True/true/1 and False/false/0. */
  bool(name: string, fallback: boolean): boolean | null {
    const v = this.params.get(name);
    if (v === null) return fallback;
    if (v === 'true' || v === 'True' || v === '1') return true;
    if (v === 'false' || v === 'False' || v === '0') return false;
    invalidField(this.reply, name, 'BASE_TYPE_BOOLEAN', 'Must be either true or false.');
    return null;
  }
}

/** The page of id-sorted items `before`/`after`/`limit` select, like Discord (only `before`: the page closest to it). */
function pageOf<T extends { id: string }>(sorted: T[], limit: number, before: string | null, after: string | null): T[] {
  let list = sorted;
  if (after !== null) list = list.filter((x) => compareIds(x.id, after) > 0);
  if (before !== null) list = list.filter((x) => compareIds(x.id, before) < 0);
  if (before !== null && after === null) return list.slice(Math.max(0, list.length - limit));
  return list.slice(0, limit);
}

/**
 * Discord's monetization REST routes for the bot (`Authorization: Bot <token>`, 401 otherwise): SKUs,
 * entitlements (list, get, consume, test grant and delete) and SKU subscriptions, with the sandbox's
 * rate-limit headers (the plugin's hook, by each route's bucket) and Discord's `{ message, code }` errors.
 */
export function monetizationApiRoutes(app: FastifyInstance, discord: SandboxEngine, engine: MonetizationEngine): void {
  /** Bot auth, then the application (403 50001 for another app, like Discord for an app the bot is not). Null when answered. */
  const appGuard = (req: FastifyRequest, reply: FastifyReply): boolean => {
    if (callerOf(req, discord).kind !== 'bot') {
      unauthorized(reply);
      return false;
    }
    const { appId } = req.params as { appId: string };
    if (!SNOWFLAKE.test(appId)) {
      discordError(reply, 404, 10002, 'Unknown Application');
      return false;
    }
    if (appId !== engine.applicationId) {
      discordError(reply, 403, 50001, 'Missing Access');
      return false;
    }
    return true;
  };

  app.get('/api/v10/applications/:appId/skus', { config: { sandboxBucket: 'GET /applications/{application.id}/skus' } }, async (req, reply) => {
    if (!appGuard(req, reply)) return reply;
    return engine.skuList();
  });

  app.get('/api/v10/applications/:appId/entitlements', { config: { sandboxBucket: 'GET /applications/{application.id}/entitlements' } }, async (req, reply) => {
    if (!appGuard(req, reply)) return reply;
    const q = new Query(req, reply);
    const userId = q.snowflake('user_id');
    if (userId === false) return reply;
    const guildId = q.snowflake('guild_id');
    if (guildId === false) return reply;
    const before = q.snowflake('before');
    if (before === false) return reply;
    const after = q.snowflake('after');
    if (after === false) return reply;
    const limit = q.int('limit', 100, 1, 100);
    if (limit === false) return reply;
    const excludeEnded = q.bool('exclude_ended', false);
    if (excludeEnded === null) return reply;
    const excludeDeleted = q.bool('exclude_deleted', true);
    if (excludeDeleted === null) return reply;
    let skuIds: Set<string> | null = null;
    const rawSkus = q.params.get('sku_ids');
    if (rawSkus !== null) {
      const ids = rawSkus.split(',').map((s) => s.trim());
      const bad = ids.find((s) => !SNOWFLAKE.test(s));
      if (bad !== undefined) return invalidField(reply, 'sku_ids', 'NUMBER_TYPE_COERCE', `Value "${bad.slice(0, 100)}" is not snowflake.`);
      skuIds = new Set(ids);
    }
    const now = discord.now();
    const ended = (e: EntitlementRecord) => e.endsAt !== null && e.endsAt <= now;
    const matching = engine
      .entitlementList()
      .filter(
        (e) =>
          (userId === null || e.userId === userId) &&
          (guildId === null || e.guildId === guildId) &&
          (skuIds === null || skuIds.has(e.skuId)) &&
          !(excludeDeleted && e.deleted) &&
          !(excludeEnded && ended(e)),
      );
    return pageOf(matching, limit, before, after).map((e) => engine.entitlementJson(e, 'rest'));
  });

  app.get(
    '/api/v10/applications/:appId/entitlements/:entitlementId',
    { config: { sandboxBucket: 'GET /applications/{application.id}/entitlements/{entitlement.id}' } },
    async (req, reply) => {
      if (!appGuard(req, reply)) return reply;
      const { entitlementId } = req.params as { entitlementId: string };
      const e = engine.entitlements.get(entitlementId);
      if (!e) return discordError(reply, 404, 10029, 'Unknown Entitlement');
      return engine.entitlementJson(e, 'rest');
    },
  );

  app.post(
    '/api/v10/applications/:appId/entitlements/:entitlementId/consume',
    { config: { sandboxBucket: 'POST /applications/{application.id}/entitlements/{entitlement.id}/consume' } },
    async (req, reply) => {
      if (!appGuard(req, reply)) return reply;
      const { entitlementId } = req.params as { entitlementId: string };
      try {
        engine.consume(entitlementId);
      } catch (err) {
        return sendError(reply, err);
      }
      return reply.code(204).send();
    },
  );

  app.post('/api/v10/applications/:appId/entitlements', { config: { sandboxBucket: 'POST /applications/{application.id}/entitlements' } }, async (req, reply) => {
    if (!appGuard(req, reply)) return reply;
    const parsed = jsonBody(req, refuseBody(reply, 'The sandbox takes JSON bodies only.'));
    if (!parsed.ok) return reply;
    const body = parsed.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return reply.code(400).send({ message: 'Invalid Form Body', code: 50035, errors: { _errors: [{ code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }] } });
    }
    const b = body as Record<string, unknown>;
    const errors: Record<string, { _errors: Array<{ code: string; message: string }> }> = {};
    const snowflakeField = (name: string) => {
      const v = b[name];
      if (v === undefined || v === null) errors[name] = { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] };
      else if (!((typeof v === 'string' && SNOWFLAKE.test(v)) || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0))) {
        errors[name] = { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: `Value "${String(v).slice(0, 100)}" is not snowflake.` }] };
      }
      return String(v);
    };
    const skuId = snowflakeField('sku_id');
    const ownerId = snowflakeField('owner_id');
    const ownerType = b.owner_type;
    if (ownerType === undefined || ownerType === null) errors.owner_type = { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] };
    else if (ownerType !== 1 && ownerType !== 2) errors.owner_type = { _errors: [{ code: 'ENUM_TYPE_COERCE', message: `Value "${String(ownerType).slice(0, 100)}" is not a valid enum value.` }] };
    if (Object.keys(errors).length > 0) return reply.code(400).send({ message: 'Invalid Form Body', code: 50035, errors });
    try {
      const e = engine.grantTest(skuId, ownerId, ownerType as 1 | 2);
      return engine.entitlementJson(e, 'sent');
    } catch (err) {
      return sendError(reply, err);
    }
  });

  app.delete(
    '/api/v10/applications/:appId/entitlements/:entitlementId',
    { config: { sandboxBucket: 'DELETE /applications/{application.id}/entitlements/{entitlement.id}' } },
    async (req, reply) => {
      if (!appGuard(req, reply)) return reply;
      const { entitlementId } = req.params as { entitlementId: string };
      try {
        engine.deleteTest(entitlementId);
      } catch (err) {
        return sendError(reply, err);
      }
      return reply.code(204).send();
    },
  );

  /** Bot auth and a known SKU (404 10027). */
  const skuGuard = (req: FastifyRequest, reply: FastifyReply): string | null => {
    if (callerOf(req, discord).kind !== 'bot') {
      unauthorized(reply);
      return null;
    }
    const { skuId } = req.params as { skuId: string };
    if (!engine.sku(skuId)) {
      discordError(reply, 404, 10027, 'Unknown SKU');
      return null;
    }
    return skuId;
  };

  app.get('/api/v10/skus/:skuId/subscriptions', { config: { sandboxBucket: 'GET /skus/{sku.id}/subscriptions' } }, async (req, reply) => {
    const skuId = skuGuard(req, reply);
    if (skuId === null) return reply;
    const q = new Query(req, reply);
    const userId = q.snowflake('user_id');
    if (userId === false) return reply;
    // Required except for OAuth queries (the bot's are not).
    if (userId === null) return invalidField(reply, 'user_id', 'BASE_TYPE_REQUIRED', 'This field is required');
    const before = q.snowflake('before');
    if (before === false) return reply;
    const after = q.snowflake('after');
    if (after === false) return reply;
    const limit = q.int('limit', 50, 1, 100);
    if (limit === false) return reply;
    const matching = engine.subscriptionList().filter((s) => s.skuId === skuId && s.userId === userId);
    return pageOf(matching, limit, before, after).map((s) => engine.subscriptionJson(s));
  });

  app.get('/api/v10/skus/:skuId/subscriptions/:subscriptionId', { config: { sandboxBucket: 'GET /skus/{sku.id}/subscriptions/{subscription.id}' } }, async (req, reply) => {
    const skuId = skuGuard(req, reply);
    if (skuId === null) return reply;
    const { subscriptionId } = req.params as { subscriptionId: string };
    const s = engine.subscriptions.get(subscriptionId);
    if (!s || s.skuId !== skuId) return discordError(reply, 404, 0, '404: Not Found');
    return engine.subscriptionJson(s);
  });
}

