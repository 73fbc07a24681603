import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { DASHBOARD_ORIGIN } from './app';

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface SetCookie {
  name: string;
  value: string;
  path?: string;
  domain?: string;
  maxAge?: number;
  expires?: Date;
  secure?: boolean;
  httpOnly?: boolean;
  sameSite?: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** A JSON value (sent with the dashboard's headers by `post`) or a raw string. */
  payload?: unknown;
  /** Do not send this browser's cookies. */
  noCookies?: boolean;
}

/**
 * A browser-like client over `app.inject`: keeps cookies (by name; the API sets them all on `/`),
 * and records every answer it receives (tests scan them for secrets).
 */
export class Browser {
  readonly jar = new Map<string, string>();
  readonly answers: LightMyRequestResponse[] = [];

  /**
   * `app`: the one server this browser talks to, or a router choosing the server per request by
   * host (several API instances behind a load balancer, a separate "Discord").
   */
  constructor(
    readonly app: FastifyInstance | ((host: string | null) => FastifyInstance),
    readonly options: { ip?: string; userAgent?: string } = {},
  ) {}

  cookieHeader(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: Method, url: string, options: RequestOptions = {}): Promise<LightMyRequestResponse> {
    const target = url.startsWith('http') ? new URL(url) : null;
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent ?? 'vitest-browser',
      ...(target ? { host: target.host } : {}),
      ...(this.jar.size > 0 && !options.noCookies ? { cookie: this.cookieHeader() } : {}),
      ...options.headers,
    };
    const server = typeof this.app === 'function' ? this.app(target?.host ?? null) : this.app;
    const res = await server.inject({
      method,
      url: target ? `${target.pathname}${target.search}` : url,
      headers,
      remoteAddress: this.options.ip ?? '127.0.0.1',
      ...(options.payload !== undefined ? { payload: typeof options.payload === 'string' ? options.payload : JSON.stringify(options.payload) } : {}),
    });
    this.answers.push(res);
    for (const c of res.cookies as SetCookie[]) {
      const expired = c.value === '' || c.maxAge === 0 || (c.expires !== undefined && c.expires.getTime() <= Date.now());
      if (expired) this.jar.delete(c.name);
      else this.jar.set(c.name, c.value);
    }
    return res;
  }

  get(url: string, options: RequestOptions = {}): Promise<LightMyRequestResponse> {
    return this.request('GET', url, options);
  }

  /** A mutation as the dashboard sends it: JSON, the custom header, its Origin. */
  post(url: string, body?: unknown, options: RequestOptions = {}): Promise<LightMyRequestResponse> {
    return this.request('POST', url, {
      ...options,
      headers: {
        'content-type': 'application/json',
        'x-requested-with': 'tickety',
        origin: DASHBOARD_ORIGIN,
        ...options.headers,
      },
      ...(body !== undefined ? { payload: body } : {}),
    });
  }

  /**
   * GET /api/auth/logout as the dashboard's request client sends it: a `fetch` (CORS mode, empty
   * destination) from the dashboard origin, same-site with the API.
   */
  logout(options: RequestOptions = {}): Promise<LightMyRequestResponse> {
    return this.get('/api/auth/logout', {
      ...options,
      headers: { origin: DASHBOARD_ORIGIN, 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty', ...options.headers },
    });
  }

  /** Every body and header this browser was sent, as one string. */
  everythingReceived(): string {
    return this.answers.map((r) => `${JSON.stringify(r.headers)}\n${r.body}`).join('\n');
  }
}

/** The parsed Set-Cookie of an answer, by name. */
export function setCookie(res: LightMyRequestResponse, name: string): SetCookie | undefined {
  return (res.cookies as SetCookie[]).find((c) => c.name === name);
}

/** The raw Set-Cookie header lines. */
export function setCookieLines(res: LightMyRequestResponse): string[] {
  const value = res.headers['set-cookie'];
  return value === undefined ? [] : Array.isArray(value) ? value : [String(value)];
}
