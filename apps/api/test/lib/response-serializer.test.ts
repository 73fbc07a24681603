import { ApiError, MeResponse } from '@tickety/api-contract';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileSerializer, createSerializerCompiler, toJsonSchema } from '../../src/lib/response-serializer';

/** The compiled serialiser of a schema that has one. */
function compiled(schema: z.ZodType): (data: unknown) => string {
  const result = compileSerializer(schema);
  if (!('serialize' in result)) throw new Error(`no compiled serialiser: ${result.reason}`);
  return result.serialize;
}

/** What fastify-type-provider-zod's serialiser writes: zod's encode, then JSON.stringify. */
const byZod = (schema: z.ZodType, data: unknown) => JSON.stringify(z.encode(schema, data as never));

const Member = z.object({
  id: z.string(),
  nick: z.string().nullable(),
  note: z.string().optional(),
  seen: z.string().nullish(),
  role: z.enum(['owner', 'admin', 'member']),
  level: z.literal([1, 2, 3]),
  tags: z.array(z.object({ name: z.string(), weight: z.number().int() })),
  counts: z.record(z.string(), z.number()),
  flags: z.record(z.enum(['a', 'b']), z.boolean()),
  pair: z.tuple([z.string(), z.number()]),
  parent: z.object({ id: z.string() }).nullable(),
  extra: z.unknown(),
  at: z.date(),
});

const member = {
  id: '1',
  nick: null,
  seen: 'yesterday',
  role: 'admin',
  level: 2,
  tags: [
    { name: 'a "quoted" \u2028 name', weight: 3 },
    { name: 'b', weight: -0 },
  ],
  counts: { x: 1.5, '10': 2, y: 1e21 },
  flags: { a: true, b: false },
  pair: ['p', 7],
  parent: { id: 'p1' },
  extra: { anything: [1, 'two', null] },
  at: new Date('2026-01-02T03:04:05.678Z'),
};

describe('the compiled response serialiser', () => {
  it('writes what zod and JSON.stringify write: nullable, optional, nullish, enums, literals, arrays of objects, records, tuples, dates', () => {
    const serialize = compiled(Member);
    for (const value of [member, { ...member, note: 'n', seen: null, nick: 'Nick', parent: null, tags: [], counts: {}, extra: undefined }]) {
      expect(JSON.parse(serialize(value))).toEqual(JSON.parse(byZod(Member, value)));
    }
  });

  it('keeps the key order when the required keys come first', () => {
    const Ordered = z.object({ b: z.string(), a: z.number(), c: z.boolean().optional() });
    const value = { a: 1, c: true, b: 'x' };
    expect(compiled(Ordered)(value)).toBe(byZod(Ordered, value));
  });

  it('writes a record of unknown values and a defaulted property (required, as zod\'s encode wants it)', () => {
    const Schema = z.object({ config: z.record(z.string(), z.unknown()), days: z.number().default(7) });
    const value = { config: { a: { deep: [1, undefined] }, gone: undefined }, days: 3 };
    expect(compiled(Schema)(value)).toBe(byZod(Schema, value));
    expect(() => compiled(Schema)({ config: {} })).toThrow(/required/);
  });

  it('drops the properties the schema does not name, at every depth', () => {
    const written = compiled(Member)({ ...member, secret: 's', tags: [{ name: 'a', weight: 1, token: 't' }], parent: { id: 'p', hidden: 1 } });
    expect(written).not.toMatch(/secret|token|hidden/);
    expect(JSON.parse(written)).toEqual(JSON.parse(byZod(Member, { ...member, tags: [{ name: 'a', weight: 1 }], parent: { id: 'p' } })));
  });

  it('writes each branch of a discriminated union with its own properties (the @me answer)', () => {
    const serialize = compiled(MeResponse);
    const signedIn = {
      isAuthenticated: true,
      user: { id: '1', username: 'ava', globalName: null, avatar: null, avatarUrl: 'https://cdn/x.png', email: 'hidden@example.com' },
      guilds: [{ id: '2', name: 'G', icon: null, iconUrl: null, owner: true, permissions: '8', canManage: true, botInGuild: false, token: 'x' }],
      team: null,
      sub: { premium: true, servers: ['2'] },
      guildsRefreshedAt: '2026-01-01T00:00:00.000Z',
    };
    const signedOut = { isAuthenticated: false, user: null, guilds: [], team: null, sub: null, guildsRefreshedAt: null };
    for (const value of [signedIn, signedOut]) expect(JSON.parse(serialize(value))).toEqual(JSON.parse(byZod(MeResponse, value)));
    expect(serialize(signedIn)).not.toMatch(/hidden|token/);
  });

  it('writes a nullable discriminated union and the error catalogue body', () => {
    const Shape = z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), a: z.string() }), z.object({ kind: z.literal('b'), b: z.number() })]).nullable();
    for (const value of [null, { kind: 'a', a: 'x', b: 1 }, { kind: 'b', b: 2, a: 'y' }]) expect(compiled(Shape)(value)).toBe(byZod(Shape, value));
    const error = { code: 1001, message: 'The request is not valid.', isAuthenticated: false, stack: 'at ...' };
    expect(compiled(ApiError)(error)).toBe(byZod(ApiError, error));
  });

  it('has no JSON Schema for what it cannot write exactly', () => {
    for (const [schema, reason] of [
      [z.object({ n: z.string().transform((text) => text.length) }), /\$\.n: pipe/],
      [z.object({ at: z.custom<string>() }), /custom/],
      [z.union([z.string(), z.number()]), /union without a discriminator/],
      [z.looseObject({ a: z.string() }), /keeps unknown keys/],
      [z.object({ next: z.lazy(() => z.string()) }), /lazy/],
      [z.record(z.string(), z.string().optional()), /may be undefined/],
      [z.array(z.number().optional()), /may be undefined/],
      [z.bigint(), /bigint/],
    ] as const) {
      expect(() => toJsonSchema(schema)).toThrow(reason);
      expect(compileSerializer(schema)).toEqual({ reason: expect.stringMatching(reason) });
    }
  });
});

describe('createSerializerCompiler', () => {
  const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/x', httpStatus: '200' }) as unknown as FastifyRouteSchemaDef<unknown>;

  it('falls back to zod (and says so) for a schema without a JSON Schema form', () => {
    const fellBack: string[] = [];
    const compile = createSerializerCompiler({ check: false, onFallback: (where, reason) => fellBack.push(`${where}: ${reason}`) });
    const serialize = compile(route(z.object({ n: z.union([z.string(), z.number()]) })));
    expect(serialize({ n: 3, m: 1 })).toBe('{"n":3}');
    expect(fellBack).toEqual(['GET /x 200: $.n: a union without a discriminator']);
  });

  it('without the check writes the answer as it is; with it, an answer of the wrong shape fails loudly', () => {
    const Schema = z.object({ count: z.number(), name: z.string() });
    expect(createSerializerCompiler({ check: false })(route(Schema))({ count: '3', name: 'x' })).toBe('{"count":3,"name":"x"}');
    const checked = createSerializerCompiler({ check: true })(route(Schema));
    expect(() => checked({ count: '3', name: 'x' })).toThrow(expect.objectContaining({ code: 'FST_ERR_RESPONSE_SERIALIZATION' }));
    expect(checked({ count: 3, name: 'x', extra: true })).toBe('{"count":3,"name":"x"}');
  });
});
