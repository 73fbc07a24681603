import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { addVary } from './vary';

/** What the compression plugin (plugins/external/compression.ts) and encoded answers agree on. */
export const COMPRESSION = {
  /** Preferred first. */
  encodings: ['br', 'gzip'] as Array<'br' | 'gzip'>,
  /** Answers shorter than this (bytes) go uncompressed. */
  threshold: 1024,
  brotliQuality: 4,
};

type Encoding = 'br' | 'gzip' | 'identity';

/** The encoding an answer of `length` bytes goes out in for this request, as the compression plugin would choose it. */
function encodingFor(req: FastifyRequest, length: number): Encoding {
  const accepted = req.headers['accept-encoding'];
  if (!accepted || length < COMPRESSION.threshold) return 'identity';
  // The plugin reads "*" (no preference) and x-gzip as gzip too.
  return negotiate(accepted.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), COMPRESSION.encodings) ?? 'identity';
}

/**
 * One answer's bytes (JSON, or a page's HTML), encoded at most once per encoding, for an answer many requests repeat unchanged
 * (a user's @me while their cached state lasts): serialised and compressed once, not per request.
 */
class EncodedAnswer {
  readonly #bytes = new Map<Encoding, Buffer>();
  readonly #json: Buffer;

  /** `json`: the route's serialiser's output (reply.serialize). */
  constructor(json: string | Buffer | ArrayBuffer) {
    this.#json = typeof json === 'string' ? Buffer.from(json) : Buffer.isBuffer(json) ? json : Buffer.from(json);
    this.#bytes.set('identity', this.#json);
  }

  /** Sends the answer in the encoding this request takes (`Content-Encoding` and `Vary` as the plugin sets them). */
  send(req: FastifyRequest, reply: FastifyReply, type = 'application/json; charset=utf-8'): FastifyReply {
    const encoding = encodingFor(req, this.#json.length);
    reply.type(type);
    if (encoding !== 'identity') {
      addVary(reply, 'accept-encoding');
      reply.header('content-encoding', encoding);
    }
    return reply.send(this.#encoded(encoding));
  }

  #encoded(encoding: Encoding): Buffer {
    let bytes = this.#bytes.get(encoding);
    if (!bytes) {
      bytes =
        encoding === 'br'
          ? brotliCompressSync(this.#json, { params: { [zlib.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality } })
          : gzipSync(this.#json);
      this.#bytes.set(encoding, bytes);
    }
    return bytes;
  }
}

/** Each cached answer's encodings, for as long as the cache holds the answer object. */
const encodings = new WeakMap<object, EncodedAnswer>();

/**
 * Sends `answer` (an object a cache holds, sent by this route only) serialised by the route's own
 * serialiser and compressed as the compression plugin would, each at most once per answer object.
 * The route opts out of the plugin (`compress: false`): its hooks would only pass the bytes on.
 */
export function sendEncoded(req: FastifyRequest, reply: FastifyReply, answer: object): FastifyReply {
  let encoded = encodings.get(answer);
  if (!encoded) {
    encoded = new EncodedAnswer(reply.serialize(answer));
    encodings.set(answer, encoded);
  }
  return encoded.send(req, reply);
}

/** The pages sendEncodedText keeps encoded, newest last (a page's HTML repeats while its data lasts). */
const texts = new Map<string, EncodedAnswer>();
const TEXTS_MAX = 32;

/**
 * Sends `text` (a page's HTML) as `type`, compressed as the compression plugin would but at once,
 * in this call (a 20 KB page: ~0.4 ms of brotli), instead of through the plugin's stream, which
 * added ~4 ms to every page's first byte; and once per distinct text among the last TEXTS_MAX.
 */
export function sendEncodedText(req: FastifyRequest, reply: FastifyReply, text: string, type: string): FastifyReply {
  let encoded = texts.get(text);
  if (encoded) texts.delete(text);
  else {
    encoded = new EncodedAnswer(text);
    if (texts.size >= TEXTS_MAX) texts.delete(texts.keys().next().value!);
  }
  texts.set(text, encoded);
  return encoded.send(req, reply, type);
}
