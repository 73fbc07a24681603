import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A parsed `application/x-www-form-urlencoded` body (kept exact: repeated parameters stay visible). */
export class FormBody {
  constructor(readonly params: URLSearchParams) {}

  get(name: string): string | undefined {
    return this.params.get(name) ?? undefined;
  }

  /** The first parameter that appears more than once (OAuth parameters must not be repeated), or null. */
  repeated(): string | null {
    const seen = new Set<string>();
    for (const name of this.params.keys()) {
      if (seen.has(name)) return name;
      seen.add(name);
    }
    return null;
  }
}

/** Any other body (JSON to the token endpoint, text, multipart): kept raw so routes answer like Discord. */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly bytes: Buffer,
  ) {}
}

const BODY_LIMIT = 64 * 1024;

/**
 * Replaces the context's body parsers with the stand-in's own (64 KiB at most; the host keeps its
 * own): forms as `FormBody`, anything else as `RawBody`, and with `json`, JSON (an empty body as
 * undefined) except where `rawJson(url)` keeps a JSON body raw.
 */
export function addBodyParsers(app: FastifyInstance, options: { json: boolean; rawJson?: (url: string) => boolean }): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
    done(null, new FormBody(new URLSearchParams(body as string)));
  });
  if (options.json) {
    const json = app.getDefaultJsonParser('error', 'error');
    app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (req, body, done) => {
      if (options.rawJson?.(req.url)) {
        done(null, new RawBody('application/json', Buffer.from(body as string)));
        return;
      }
      if ((body as string).trim() === '') {
        done(null, undefined);
        return;
      }
      json(req, body as string, done);
    });
  }
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (req, body, done) => {
    done(null, new RawBody(String(req.headers['content-type'] ?? ''), body as Buffer));
  });
}

export type JsonBody = { ok: true; body: unknown } | { ok: false };

/** Why `jsonBody` refused a body: JSON that does not parse, or a form, multipart or text body. */
export type BodyRefusal = 'invalid-json' | 'not-json';

/**
 * The JSON body of a request whose JSON the parsers kept raw (`rawJson`), an empty body as undefined.
 * Anything else goes to `refuse`, which answers in the stand-in's own error format.
 */
export function jsonBody(req: FastifyRequest, refuse: (refusal: BodyRefusal) => void): JsonBody {
  const body = req.body;
  if (body === undefined || body === null) return { ok: true, body: undefined };
  if (body instanceof RawBody && /^application\/json\b/i.test(body.contentType)) {
    const text = body.bytes.toString('utf8');
    if (text.trim() === '') return { ok: true, body: undefined };
    try {
      return { ok: true, body: JSON.parse(text) };
    } catch {
      refuse('invalid-json');
      return { ok: false };
    }
  }
  if (body instanceof RawBody || body instanceof FormBody) {
    refuse('not-json');
    return { ok: false };
  }
  return { ok: true, body };
}
