import type { FastifyInstance } from 'fastify';

/** A parsed `application/x-www-form-urlencoded` body (kept exact: repeated parameters stay visible). */
export class FormBody {
  constructor(readonly params: URLSearchParams) {}

  get(name: string): string | undefined {
    return this.params.get(name) ?? undefined;
  }

  /** The first parameter that appears more than once (RFC 6749 §3.1: must not be repeated), or null. */
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
