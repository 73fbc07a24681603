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
    const value = this.params.get(name);
    if (value === null) return null;
    if (!SNOWFLAKE.test(value)) {
      invalidField(this.reply, name, 'NUMBER_TYPE_COERCE', `Value "${value.slice(0, 100)}" is not snowflake.`);
      return false;
    }
    return value;
  }

  int(name: string, fallback: number, min: number, max: number): number | false {
    const value = this.params.get(name);
    if (value === null) return fallback;
    if (!/^-?\d{1,10}$/.test(value)) {
      invalidField(this.reply, name, 'NUMBER_TYPE_COERCE', `Value "${value.slice(0, 100)}" is not int.`);
      return false;
    }
    const count = Number(value);
    if (count < min) {
      invalidField(this.reply, name, 'NUMBER_TYPE_MIN', `Int value should be greater than or equal to ${min}.`);
      return false;
    }
    if (count > max) {
      invalidField(this.reply, name, 'NUMBER_TYPE_MAX', `Int value should be less than or equal to ${max}.`);
      return false;
    }
    return count;
  }

  /** Discord's boolean query strings: True/true/1 and False/false/0. */
  bool(name: string, fallback: boolean): boolean | null {
    const value = this.params.get(name);
    if (value === null) return fallback;
    if (value === 'true' || value === 'True' || value === '1') return true;
    if (value === 'false' || value === 'False' || value === '0') return false;
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
    const query = new Query(req, reply);
    const userId = query.snowflake('user_id');
    if (userId === false) return reply;
    const guildId = query.snowflake('guild_id');
    if (guildId === false) return reply;
    const before = query.snowflake('before');
    if (before === false) return reply;
    const after = query.snowflake('after');
    if (after === false) return reply;
    const limit = query.int('limit', 100, 1, 100);
    if (limit === false) return reply;
    const excludeEnded = query.bool('exclude_ended', false);
    if (excludeEnded === null) return reply;
    const excludeDeleted = query.bool('exclude_deleted', true);
    if (excludeDeleted === null) return reply;
    let skuIds: Set<string> | null = null;
    const rawSkus = query.params.get('sku_ids');
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
        (entitlement) =>
          (userId === null || entitlement.userId === userId) &&
          (guildId === null || entitlement.guildId === guildId) &&
          (skuIds === null || skuIds.has(entitlement.skuId)) &&
          !(excludeDeleted && entitlement.deleted) &&
          !(excludeEnded && ended(entitlement)),
      );
    return pageOf(matching, limit, before, after).map((e) => engine.entitlementJson(e, 'rest'));
  });

  app.get(
    '/api/v10/applications/:appId/entitlements/:entitlementId',
    { config: { sandboxBucket: 'GET /applications/{application.id}/entitlements/{entitlement.id}' } },
    async (req, reply) => {
      if (!appGuard(req, reply)) return reply;
      const { entitlementId } = req.params as { entitlementId: string };
      const entitlement = engine.entitlements.get(entitlementId);
      if (!entitlement) return discordError(reply, 404, 10029, 'Unknown Entitlement');
      return engine.entitlementJson(entitlement, 'rest');
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
    const fields = body as Record<string, unknown>;
    const errors: Record<string, { _errors: Array<{ code: string; message: string }> }> = {};
    const snowflakeField = (name: string) => {
      const value = fields[name];
      if (value === undefined || value === null) errors[name] = { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] };
      else if (!((typeof value === 'string' && SNOWFLAKE.test(value)) || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0))) {
        errors[name] = { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: `Value "${String(value).slice(0, 100)}" is not snowflake.` }] };
      }
      return String(value);
    };
    const skuId = snowflakeField('sku_id');
    const ownerId = snowflakeField('owner_id');
    const ownerType = fields.owner_type;
    if (ownerType === undefined || ownerType === null) errors.owner_type = { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] };
    else if (ownerType !== 1 && ownerType !== 2) errors.owner_type = { _errors: [{ code: 'ENUM_TYPE_COERCE', message: `Value "${String(ownerType).slice(0, 100)}" is not a valid enum value.` }] };
    if (Object.keys(errors).length > 0) return reply.code(400).send({ message: 'Invalid Form Body', code: 50035, errors });
    try {
      const entitlement = engine.grantTest(skuId, ownerId, ownerType as 1 | 2);
      return engine.entitlementJson(entitlement, 'sent');
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
    const query = new Query(req, reply);
    const userId = query.snowflake('user_id');
    if (userId === false) return reply;
    // Required except for OAuth queries (the bot's are not).
    if (userId === null) return invalidField(reply, 'user_id', 'BASE_TYPE_REQUIRED', 'This field is required');
    const before = query.snowflake('before');
    if (before === false) return reply;
    const after = query.snowflake('after');
    if (after === false) return reply;
    const limit = query.int('limit', 50, 1, 100);
    if (limit === false) return reply;
    const matching = engine.subscriptionList().filter((s) => s.skuId === skuId && s.userId === userId);
    return pageOf(matching, limit, before, after).map((s) => engine.subscriptionJson(s));
  });

  app.get('/api/v10/skus/:skuId/subscriptions/:subscriptionId', { config: { sandboxBucket: 'GET /skus/{sku.id}/subscriptions/{subscription.id}' } }, async (req, reply) => {
    const skuId = skuGuard(req, reply);
    if (skuId === null) return reply;
    const { subscriptionId } = req.params as { subscriptionId: string };
    const subscription = engine.subscriptions.get(subscriptionId);
    if (!subscription || subscription.skuId !== skuId) return discordError(reply, 404, 0, '404: Not Found');
    return engine.subscriptionJson(subscription);
  });
}

