import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app';
import { Browser } from '../helpers/browser';
import { databases } from '../helpers/db';

describe.each(databases())('route schemas and GET /api/openapi.json on $name', (database) => {
  const t = useTestApp(database);

  it('describes every API route from its schemas, and nothing of the sandbox', async () => {
    const res = await new Browser(t.app).get('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; info: { title: string }; paths: Record<string, Record<string, { responses?: Record<string, unknown>; parameters?: Array<{ name: string; in: string; schema?: { pattern?: string } }> }>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Tickety API');
    for (const path of ['/api/auth/@me', '/api/auth/logout', '/api/auth/login', '/api/auth/callback', '/api/auth/guilds/refresh', '/api/guilds/{server}', '/api/guilds/{server}/resources', '/api/guilds/{server}/posts', '/api/guilds/{server}/posts/{kind}/{id}/update', '/api/guilds/{server}/tickets', '/api/guilds/{server}/tickets/stream', '/api/guilds/{server}/tickets/{ticket}', '/api/guilds/{server}/tickets/{ticket}/commands', '/api/guilds/{server}/tickets/{ticket}/attachments', '/api/guilds/{server}/tickets/labels', '/api/bot/v1/attachments/{id}', '/api/plans/', '/api/status/', '/api/health/', '/api/health/ready', '/config.json']) {
      expect(Object.keys(doc.paths), path).toContain(path);
    }
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/sandbox') || p === '/api/openapi.json')).toEqual([]);
    // The answer's shape and the parameters come from the contract's zod schemas.
    expect(doc.paths['/api/auth/@me']?.get?.responses?.['200']).toBeDefined();
    const server = doc.paths['/api/guilds/{server}']?.get?.parameters?.find((p) => p.name === 'server');
    expect(server).toMatchObject({ in: 'path', schema: { pattern: '^[1-9]\\d{16,19}$' } });
    // The server's resources and posted panels: answers and bodies from the contract.
    expect(doc.paths['/api/guilds/{server}/resources']?.get?.responses?.['200']).toBeDefined();
    expect(doc.paths['/api/guilds/{server}/resources']?.get?.responses?.['422']).toBeDefined();
    expect(doc.paths['/api/guilds/{server}/resources']?.get?.parameters?.map((p) => p.name).sort()).toEqual(['refresh', 'server']);
    expect(doc.paths['/api/guilds/{server}/posts']?.post?.responses?.['200']).toBeDefined();
    expect(doc.paths['/api/guilds/{server}/tickets/{ticket}/commands']?.post?.responses?.['202']).toBeDefined();
    expect(doc.paths['/api/guilds/{server}/tickets']?.get?.parameters?.map((p) => p.name).sort()).toEqual(['filter', 'label', 'panel', 'q', 'server']);
    expect(doc.paths['/api/guilds/{server}/posts/{kind}/{id}/update']?.post?.parameters?.map((p) => p.name).sort()).toEqual(['id', 'kind', 'server']);
    // The bot API: its routes, tagged, with the bearer key scheme and the event batch's schema.
    const bot = doc.paths as unknown as Record<string, Record<string, { tags?: string[]; security?: unknown[]; requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } }>>;
    for (const [path, method] of [['/api/bot/v1/me', 'get'], ['/api/bot/v1/keys/rotate', 'post'], ['/api/bot/v1/servers/{server}/config', 'get'], ['/api/bot/v1/events', 'post'], ['/api/bot/v1/shards', 'put'], ['/api/bot/v1/servers/{server}/transcripts/{fileid}', 'put'], ['/api/bot/v1/messages', 'post'], ['/api/bot/v1/commands', 'get'], ['/api/bot/v1/commands/{id}/result', 'post']] as const) {
      expect(bot[path]?.[method], path).toMatchObject({ tags: ['bot'], security: [{ botKey: [] }] });
    }
    expect(Object.keys(bot['/api/bot/v1/events']?.post?.requestBody?.content['application/json']?.schema.properties ?? {})).toEqual(['events']);
    expect(Object.keys(bot['/api/bot/v1/messages']?.post?.requestBody?.content['application/json']?.schema.properties ?? {})).toEqual(['messages']);
    // Both directions: the commands a bot takes are described, each kind with its fields.
    const commands = JSON.stringify(doc.paths['/api/bot/v1/commands']?.get?.responses?.['200']);
    for (const kind of ['reply', 'claim', 'unclaim', 'close', 'add_member', 'set_labels', 'leaseUntil', 'attempt']) expect(commands, kind).toContain(kind);
    // What a bot reads: the configuration field by field, the automation settings included.
    const config = JSON.stringify(doc.paths['/api/bot/v1/servers/{server}/config']?.get?.responses?.['200']);
    for (const field of ['panels', 'supportRoleIds', 'autoClose', 'memberSilentHours', 'warningMessage', 'tags', 'keywords', 'blocklist', 'expiresAt', 'feedback', 'question']) expect(config, field).toContain(`"${field}"`);
    expect((res.json() as { components: { securitySchemes: Record<string, unknown> } }).components.securitySchemes.botKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const callback = doc.paths['/api/auth/callback']?.get?.parameters?.map((p) => p.name).sort();
    expect(callback).toEqual(['code', 'error', 'error_description', 'state']);
  });

  it('names no route without a schema at start', () => {
    expect(t.logs.messages(/route without a schema/)).toEqual([]);
  });

  it('lists at start (debug) the answers zod serialises; the hot ones are compiled', () => {
    const [line] = t.logs.messages(/answers serialised by zod/);
    const routes = ((line?.routes ?? []) as Array<{ route: string; reason: string }>).map((entry) => entry.route);
    console.log(`answers serialised by zod:\n${JSON.stringify(line?.routes ?? [], null, 1)}`);
    for (const hot of ['GET /api/auth/@me 200', 'GET /api/guilds/:server 200', 'GET /api/guilds/:server/config 200', 'GET /api/guilds/:server/config 404']) {
      expect(routes, hot).not.toContain(hot);
    }
  });

  it('refuses what a route schema refuses with the catalogue\'s VALIDATION_FAILED, from the one error plugin', async () => {
    const res = await new Browser(t.app).get('/api/auth/callback?state=a&state=b&code=c');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('1001 - 400');
  });
});
