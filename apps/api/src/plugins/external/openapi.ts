import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { API_DIR } from '../../config';
import { createSerializerCompiler } from '../../lib/response-serializer';

/** Addresses the OpenAPI document describes: the API and the front end's configuration (not the sandbox, not the pages). */
function documented(url: string): boolean {
  return (url.startsWith('/api/') && url !== '/api/openapi.json') || url === '/config.json';
}

/**
 * Route schemas from `@tickety/api-contract` (zod), through fastify-type-provider-zod: a route's
 * `schema` validates its params, query and body (a mismatch is the catalogue's VALIDATION_FAILED,
 * from the one error plugin) and types its handler. Its response schema serialises its answer
 * (no field leaves that it does not name) through fast-json-stringify, compiled once at start
 * (lib/response-serializer.ts; docs/api.md, "Response serialisation"). `GET /api/openapi.json` is
 * the OpenAPI document of the same schemas. Registered before any route.
 */
export default fp(
  async function openapi(app: FastifyInstance, opts: { title: string }) {
    const { version } = JSON.parse(readFileSync(join(API_DIR, 'package.json'), 'utf8')) as { version: string };
    app.setValidatorCompiler(validatorCompiler);
    // In tests zod checks every answer too, so a wrong shape still fails there.
    const zodSerialised: Array<{ route: string; reason: string }> = [];
    app.setSerializerCompiler(
      createSerializerCompiler({ check: app.config.env === 'test', onFallback: (route, reason) => zodSerialised.push({ route, reason }) }),
    );
    // Every route the document describes declares its schema: one without is named at start (and a
    // test fails on it), so a new route cannot slip in untyped.
    const missing: string[] = [];
    app.addHook('onRoute', (route) => {
      if (documented(route.url) && !route.schema && route.method !== 'HEAD') missing.push(`${String(route.method)} ${route.url}`);
    });
    app.addHook('onReady', async () => {
      for (const route of missing) app.log.error({ route }, 'route without a schema (packages/api-contract): it is not validated, serialised or documented');
      if (zodSerialised.length > 0) app.log.debug({ routes: zodSerialised }, 'answers serialised by zod (their response schema has no exact JSON Schema)');
    });
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: opts.title,
          version,
          description:
            'Every answer, errors included, follows the error catalogue (docs/api.md). Cookie-authenticated (the session cookie the sign-in sets), except the bot API (tag "bot"), which takes a bot key as a bearer token.',
        },
        components: {
          securitySchemes: {
            botKey: { type: 'http', scheme: 'bearer', description: 'A bot key, tk_bot_<id>_<secret> (docs/api.md, "Bot API").' },
          },
        },
      },
      transform: (input) => {
        if (!documented(input.url)) return { schema: { ...input.schema, hide: true }, url: input.url };
        return jsonSchemaTransform(input);
      },
    });
    app.get('/api/openapi.json', { config: { rateLimit: false }, schema: { hide: true } }, async (_req, reply) => {
      reply.header('cache-control', 'no-cache');
      return app.swagger();
    });
  },
  { name: 'tickety-openapi' },
);
