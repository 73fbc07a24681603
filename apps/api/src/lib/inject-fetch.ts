import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FetchLike } from './discord';

/**
 * Marks the API's own in-process requests (a random value per process: it never leaves the
 * process, so no client can send it), so the per-IP limits do not count the API's calls to the
 * sandbox against the visitors of 127.0.0.1.
 */
const IN_PROCESS_HEADER = 'x-tickety-in-process';
const IN_PROCESS_TOKEN = randomBytes(18).toString('base64url');

export function isInProcess(req: FastifyRequest): boolean {
  return req.headers[IN_PROCESS_HEADER] === IN_PROCESS_TOKEN;
}

/**
 * A fetch that answers from this same Fastify app (app.inject), for demo mode: the API reaches the
 * sandbox mounted in its own process without a network hop, whatever HOST/PUBLIC_URL are.
 */
export function injectFetch(app: FastifyInstance): FetchLike {
  return async (input, init = {}) => {
    const url = new URL(input);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const method = (init.method ?? 'GET').toUpperCase() as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
    const res = await app.inject({
      method,
      url: `${url.pathname}${url.search}`,
      headers: { ...headers, host: url.host, [IN_PROCESS_HEADER]: IN_PROCESS_TOKEN },
      remoteAddress: '127.0.0.1',
      ...(init.body !== undefined && init.body !== null ? { payload: String(init.body) } : {}),
    });
    const out = new Headers();
    for (const [key, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [String(value)]) out.append(key, v);
    }
    const noBody = res.statusCode === 204 || res.statusCode === 304 || method === 'HEAD';
    return new Response(noBody ? null : res.rawPayload, { status: res.statusCode, headers: out });
  };
}
