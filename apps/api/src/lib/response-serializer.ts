import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { $ZodType, safeEncode } from 'zod/v4/core';

/**
 * Answers are serialised by fast-json-stringify from a JSON Schema made from the route's zod
 * response schema (compiled once per schema, at start), not by a zod pass over every answer
 * (docs/api.md, "Response serialisation"). A schema with a part JSON Schema cannot say exactly (a transform, z.custom, a
 * plain union, a loose object...) keeps the zod serialiser. With `check` on (tests), every answer
 * also goes through zod: a wrong shape is the same 500 as before, and the two outputs must agree.
 */

export type JsonSchema = { [keyword: string]: unknown };

/** Why a zod schema has no JSON Schema that serialises exactly as zod does. */
export class NoJsonSchemaForm extends Error {}

interface LooseDef {
  type: string;
  innerType?: $ZodType;
  element?: $ZodType;
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  keyType?: $ZodType;
  valueType?: $ZodType;
  options?: $ZodType[];
  discriminator?: string;
  items?: $ZodType[];
  rest?: $ZodType | null;
  entries?: Record<string, unknown>;
  values?: unknown[];
}

const defOf = (schema: $ZodType): LooseDef => schema._zod.def as unknown as LooseDef;

/** JSON Schema's if/then/else (built from entries: an object literal with a `then` key reads as a thenable to linters). */
const ifThenElse = (condition: JsonSchema, match: JsonSchema, otherwise: JsonSchema): JsonSchema =>
  Object.fromEntries([
    ['if', condition],
    ['then', match],
    ['else', otherwise],
  ]);

/** The JSON type of literal or enum values, when they share one (fast-json-stringify needs no more to write them). */
function typeOfValues(values: readonly unknown[], at: string): JsonSchema {
  const types = new Set(values.map((value) => (value === null ? 'null' : typeof value)));
  const [only] = types;
  if (types.size === 1 && (only === 'string' || only === 'number' || only === 'boolean' || only === 'null')) return { type: only };
  throw new NoJsonSchemaForm(`${at}: values of several types (${[...types].join(', ')})`);
}

/** A property the answer may leave out (`.optional()`, `.nullish()`, `z.unknown()`...). */
function mayBeAbsent(schema: $ZodType): boolean {
  const { type } = defOf(schema);
  return schema._zod.optout === 'optional' || type === 'any' || type === 'unknown';
}

function objectSchema(def: LooseDef, at: string): JsonSchema {
  const catchall = def.catchall ? defOf(def.catchall).type : undefined;
  if (catchall !== undefined && catchall !== 'never') throw new NoJsonSchemaForm(`${at}: an object that keeps unknown keys`);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, property] of Object.entries(def.shape ?? {})) {
    const propertyDef = defOf(property);
    const where = `${at}.${key}`;
    if (propertyDef.type === 'undefined') throw new NoJsonSchemaForm(`${where}: z.undefined()`);
    if (mayBeAbsent(property)) {
      properties[key] = toJsonSchema(propertyDef.type === 'optional' ? propertyDef.innerType! : property, where);
    } else {
      properties[key] = toJsonSchema(property, where);
      required.push(key);
    }
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** A discriminated union: an if/then/else chain on the discriminator, so only that key is checked to pick the branch. */
function discriminatedSchema(def: LooseDef, at: string): JsonSchema {
  const key = def.discriminator!;
  const branches = (def.options ?? []).map((option, index) => {
    const values = option._zod.propValues?.[key];
    if (!values || values.size === 0) throw new NoJsonSchemaForm(`${at}: branch ${index} has no value for "${key}"`);
    return { values: [...values], schema: toJsonSchema(option, `${at}|${index}`) };
  });
  if (branches.length === 0) throw new NoJsonSchemaForm(`${at}: an empty union`);
  let chain: JsonSchema = branches.at(-1)!.schema;
  for (const branch of branches.slice(0, -1).reverse()) {
    chain = ifThenElse({ type: 'object', properties: { [key]: { enum: branch.values } }, required: [key] }, branch.schema, chain);
  }
  return chain;
}

/**
 * The JSON Schema fast-json-stringify writes a valid answer of `schema` with, byte for byte what
 * JSON.stringify writes after zod's encode (key order aside: required keys come first). Throws
 * NoJsonSchemaForm for a part it cannot say exactly; `at` names that part in the message.
 */
export function toJsonSchema(schema: $ZodType, at = '$'): JsonSchema {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
    case 'template_literal':
      return { type: 'string' };
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'null':
      return { type: 'null' };
    case 'date':
      return { type: 'string', format: 'date-time' };
    case 'any':
    case 'unknown':
      return {};
    case 'enum':
      return typeOfValues(Object.values(def.entries ?? {}), at);
    case 'literal':
      return typeOfValues(def.values ?? [], at);
    case 'nullable': {
      const inner = toJsonSchema(def.innerType!, at);
      if (Object.keys(inner).length === 0) return inner;
      // fast-json-stringify reads `nullable` after if/then/else, never on it: null is a branch of its own.
      if ('if' in inner) return ifThenElse({ type: 'null' }, { type: 'null' }, inner);
      return { ...inner, nullable: true };
    }
    case 'readonly':
      return toJsonSchema(def.innerType!, at);
    case 'default':
      // An answer always holds it (zod's encode refuses one without): the inner schema, required.
      return toJsonSchema(def.innerType!, at);
    case 'array': {
      if (mayBeAbsent(def.element!)) throw new NoJsonSchemaForm(`${at}[]: an item that may be undefined`);
      return { type: 'array', items: toJsonSchema(def.element!, `${at}[]`) };
    }
    case 'tuple': {
      if (def.rest) throw new NoJsonSchemaForm(`${at}: a tuple with a rest`);
      const items = (def.items ?? []).map((item, index) => {
        if (mayBeAbsent(item)) throw new NoJsonSchemaForm(`${at}[${index}]: an item that may be undefined`);
        return toJsonSchema(item, `${at}[${index}]`);
      });
      // An empty tuple's items are written as null: nothing an answer wrongly holds there leaks.
      return items.length === 0 ? { type: 'array', maxItems: 0, items: { type: 'null' } } : { type: 'array', items, additionalItems: false };
    }
    case 'object':
      return objectSchema(def, at);
    case 'record': {
      const keyType = defOf(def.keyType!).type;
      if (keyType !== 'string' && keyType !== 'enum' && keyType !== 'literal') throw new NoJsonSchemaForm(`${at}: a record keyed by ${keyType}`);
      // Values zod passes through as they are: JSON.stringify writes the record (leaving out undefined ones) as zod's path does.
      const valueType = defOf(def.valueType!).type;
      if (valueType === 'unknown' || valueType === 'any') return {};
      if (mayBeAbsent(def.valueType!)) throw new NoJsonSchemaForm(`${at}{}: a value that may be undefined`);
      return { type: 'object', additionalProperties: toJsonSchema(def.valueType!, `${at}{}`) };
    }
    case 'union':
      if (def.discriminator !== undefined) return discriminatedSchema(def, at);
      throw new NoJsonSchemaForm(`${at}: a union without a discriminator`);
    default:
      // transform, pipe (and codecs), custom, lazy, default, catch, intersection, bigint, map, set...
      throw new NoJsonSchemaForm(`${at}: ${def.type}`);
  }
}

type Serialize = (data: unknown) => string;

type Compiled = { serialize: Serialize } | { reason: string };

/** Compiled once per schema: the catalogue's `ApiError` answers a dozen statuses on most routes. */
const compiledBySchema = new WeakMap<$ZodType, Compiled>();

/** fast-json-stringify's function for a zod schema, or the reason it has none. */
export function compileSerializer(schema: $ZodType): Compiled {
  let compiled = compiledBySchema.get(schema);
  if (compiled) return compiled;
  try {
    compiled = { serialize: fastJson(toJsonSchema(schema)) as Serialize };
  } catch (error) {
    if (!(error instanceof NoJsonSchemaForm)) throw error;
    compiled = { reason: error.message };
  }
  compiledBySchema.set(schema, compiled);
  return compiled;
}

/** zod's encode, then JSON.stringify: fastify-type-provider-zod's serialiser, the fallback. */
function zodSerializer(schema: $ZodType, method: string, url: string): Serialize {
  return (data) => {
    const result = safeEncode(schema, data);
    if (result.error) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
}

export interface SerializerCompilerOptions {
  /** Every answer is checked by zod too, and both serialisers must agree (tests). */
  check: boolean;
  /** Told once per route and status whose answers zod serialises, and why. */
  onFallback?: (route: string, reason: string) => void;
}

function resolveSchema(maybeSchema: unknown): $ZodType {
  if (maybeSchema instanceof $ZodType) return maybeSchema;
  const properties = (maybeSchema as { properties?: unknown } | null)?.properties;
  if (properties instanceof $ZodType) return properties;
  throw new Error(`a response schema that is not a zod schema: ${JSON.stringify(maybeSchema)?.slice(0, 200)}`);
}

/** Fastify's serializer compiler for zod response schemas (see the top of this file). */
export function createSerializerCompiler(options: SerializerCompilerOptions): FastifySerializerCompiler<unknown> {
  return ({ schema: maybeSchema, method, url, httpStatus }) => {
    const schema = resolveSchema(maybeSchema);
    const byZod = zodSerializer(schema, method, url);
    const compiled = compileSerializer(schema);
    if ('reason' in compiled) {
      options.onFallback?.(`${method} ${url} ${httpStatus}`, compiled.reason);
      return byZod;
    }
    if (!options.check) return compiled.serialize;
    return (data) => {
      const expected = byZod(data);
      const written = compiled.serialize(data);
      if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
        throw new Error(`${method} ${url} ${httpStatus}: the compiled serialiser wrote ${written.slice(0, 300)} where zod wrote ${expected.slice(0, 300)}`);
      }
      return written;
    };
  };
}
