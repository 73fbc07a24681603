import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Page } from './page';

/** The stand-in's absolute URL for links it hands out (API answers): the option, else the request's host and the prefix. */
export function baseOf(req: FastifyRequest, prefix: string, configured: string | null): string {
  return configured ?? `${req.protocol}://${req.host}${prefix}`;
}

/** A query parameter's first value. */
export function param(req: FastifyRequest, name: string): string | undefined {
  const value = (req.query as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether a form POST comes from the stand-in's own pages: `Sec-Fetch-Site: same-origin` when the browser
 * sends it, else an `Origin` on the same host (tests and old browsers send neither: allowed).
 */
export function sameOrigin(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return true;
  try {
    return new URL(origin).host === req.host;
  } catch {
    return false;
  }
}

/** `http(s)://host[:port]` exactly (what `window.location.origin` gives), or null. */
export function originOf(value: string | undefined): string | null {
  if (!value || value.length > 300) return null;
  try {
    const url = new URL(value);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value) return value;
  } catch {
    // not a URL
  }
  return null;
}

/** An absolute http(s) URL, or null. */
export function httpUrl(value: string | undefined): string | null {
  if (!value || value.length > 2000) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export function sendPage(reply: FastifyReply, status: number, page: Page): FastifyReply {
  return reply
    .code(status)
    .header('content-security-policy', page.csp)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .type('text/html; charset=utf-8')
    .send(page.html);
}

/** The path of a request URL without its query. */
export function pathOf(url: string): string {
  const quantity = url.indexOf('?');
  return quantity === -1 ? url : url.slice(0, quantity);
}

/** The raw query of a request URL, parsed exactly (repeated parameters stay visible). */
export function queryOf(url: string): URLSearchParams {
  const quantity = url.indexOf('?');
  return new URLSearchParams(quantity === -1 ? '' : url.slice(quantity + 1));
}

/** A request URL's path below the prefix (`/` for the prefix itself). */
export function pathBelow(prefix: string): (url: string) => string {
  return (url) => {
    const path = pathOf(url);
    return prefix && path.startsWith(prefix) ? path.slice(prefix.length) || '/' : path;
  };
}
