/**
 * Message attachments on the sandbox's CDN, as Discord serves them since 2024: signed, expiring
 * links `/cdn/attachments/<channel>/<attachment>/<filename>?ex=<hex expiry>&is=<hex issued>&hm=<hex
 * HMAC>`; an expired or tampered link answers 404 ("This content is no longer available."), and the
 * bot refreshes links with `POST /api/v10/attachments/refresh-urls`. Holds the demo's legacy (v1)
 * transcripts: HTML files a bot attached to a message before transcripts were stored by the service,
 * with hostile content a viewer must never run.
 */
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { RawBody } from '../kit/body';
import { safeEqual } from '../kit/crypto';
import { DEMO_CHANNELS, } from './demo-data';
import type { SandboxEngine } from './engine';
import { unauthorized } from './errors';
import { callerOf } from './rest';
import { vectors } from './xss-vectors';

/** The sandbox CDN's signing key (a sandbox: public, fixed, so links in docs and tests stay valid). */
const SIGNING_KEY = 'tickety-sandbox-cdn-attachments';
/** How long a signed link lives (Discord: 24 hours). */
export const ATTACHMENT_LINK_TTL_MS = 24 * 3600 * 1000;

export interface SandboxAttachment {
  channelId: string;
  id: string;
  filename: string;
  contentType: string;
  body: Buffer;
}

const hex = (ms: number) => Math.floor(ms / 1000).toString(16);

/** The HMAC of a link's path and times (hex). */
export function attachmentSignature(channelId: string, id: string, filename: string, ex: string, is: string): string {
  return createHmac('sha256', SIGNING_KEY).update(`${channelId}/${id}/${filename}?ex=${ex}&is=${is}`).digest('hex');
}

/** The signed query of a link issued at `issuedMs`. */
export function signAttachment(channelId: string, id: string, filename: string, issuedMs: number): { ex: string; is: string; hm: string } {
  const is = hex(issuedMs);
  const ex = hex(issuedMs + ATTACHMENT_LINK_TTL_MS);
  return { ex, is, hm: attachmentSignature(channelId, id, filename, ex, is) };
}

/** Ava's Arcade's #transcripts, where the bot attached them. */
const LEGACY_CHANNEL = DEMO_CHANNELS.avasArcade.transcripts;

function legacyHtml(title: string, messages: Array<[string, string]>): string {
  const rows = messages.map(([author, html]) => `<div class="msg"><b class="author">${author}</b><div class="content">${html}</div></div>`).join('\n');
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title>
<meta http-equiv="refresh" content="0;url=javascript:top.__xss=101">
<style>body{background:#36393f;color:#dcddde;font-family:sans-serif} .author{color:#fff}</style>
<script>top.__xss=100</script><link rel="stylesheet" href="https://evil.example/x.css"></head>
<body onload="top.__xss=102"><h1>${title}</h1>
${rows}
</body></html>`;
}

/** The demo's legacy transcripts (v1): fixed ids and names, so their addresses are fixed too. */
export const DEMO_LEGACY_TRANSCRIPTS = [
  {
    channelId: LEGACY_CHANNEL,
    id: '1900000000000000101',
    filename: 'transcript-ticket-0042.html',
    html: legacyHtml("Ava's Arcade · ticket-0042", [
      ['Ben', 'Hi, my <b>season pass</b> is missing.'],
      ['Jules', 'Checking… see <a href="https://tickety.example/help">the help page</a> or <a href="javascript:top.__xss=103">this</a>.'],
      ['Ben', '<img src="x" onerror="top.__xss=104"> screenshot attached'],
      ['Jules', '<iframe src="javascript:top.__xss=105"></iframe><form action="javascript:top.__xss=106"><button>Claim reward</button></form>'],
      ['Ben', '<svg onload="top.__xss=107"></svg><a href="data:text/html,<script>top.__xss=108</script>">data link</a> Thanks!'],
    ]),
  },
  {
    channelId: LEGACY_CHANNEL,
    id: '1900000000000000102',
    filename: 'transcript-ticket-0043.html',
    html: legacyHtml("Ava's Arcade · ticket-0043", [
      ['Mika', 'Someone is spamming invite links in <i>#general</i>.'],
      ['Jules', 'Banned them, thanks for the report. <div style="position:fixed;inset:0" onmouseover="top.__xss=109">x</div>'],
      ['Mika', '<object data="javascript:top.__xss=110"></object><embed src="javascript:top.__xss=111"> 👍'],
    ]),
  },
  {
    // Every vector of the corpus (xss-vectors.ts), for the tests that open it in a browser.
    channelId: LEGACY_CHANNEL,
    id: '1900000000000000103',
    filename: 'transcript-xss-corpus.html',
    html: legacyHtml('XSS corpus', vectors().map((v) => [`vector ${v.n}`, v.payload] as [string, string])),
  },
] as const;

/** When the demo's legacy links were issued: long ago, so they are expired and refreshed on every read. */
export const LEGACY_ISSUED_MS = Date.UTC(2025, 5, 1);

/** The viewer's address of a demo legacy transcript (an expired, correctly signed link). */
export function legacyTranscriptPath(index: number): string {
  const transaction = DEMO_LEGACY_TRANSCRIPTS[index]!;
  const { ex, is, hm } = signAttachment(transaction.channelId, transaction.id, transaction.filename, LEGACY_ISSUED_MS);
  return `/transcript/v1/${transaction.channelId}/${transaction.id}/${transaction.filename}/${ex}/${is}/${hm}`;
}

/** Bytes of uploaded files the sandbox keeps (memory stays bounded; an evicted file's link answers 404). */
export const UPLOADS_MAX_BYTES = 64 * 1024 * 1024;

/** The sandbox's attachments: the demo's legacy transcripts, and whatever `put` adds. */
export class AttachmentStore {
  readonly #files = new Map<string, SandboxAttachment>();

  constructor() {
    for (const transaction of DEMO_LEGACY_TRANSCRIPTS) this.put({ channelId: transaction.channelId, id: transaction.id, filename: transaction.filename, contentType: 'text/html; charset=utf-8', body: Buffer.from(transaction.html) });
  }

  put(file: SandboxAttachment): void {
    this.#files.set(`${file.channelId}/${file.id}`, file);
  }

  /** Files the bot uploaded, oldest first, and their bytes: at most UPLOADS_MAX_BYTES are kept. */
  readonly #uploads: string[] = [];
  #uploadBytes = 0;

  /** A file the bot uploaded with a message; the oldest uploads go once they hold more than UPLOADS_MAX_BYTES. */
  upload(file: SandboxAttachment): void {
    const key = `${file.channelId}/${file.id}`;
    this.put(file);
    this.#uploads.push(key);
    this.#uploadBytes += file.body.length;
    while (this.#uploadBytes > UPLOADS_MAX_BYTES && this.#uploads.length > 1) {
      const oldest = this.#uploads.shift()!;
      this.#uploadBytes -= this.#files.get(oldest)?.body.length ?? 0;
      this.#files.delete(oldest);
    }
  }

  get(channelId: string, id: string): SandboxAttachment | undefined {
    return this.#files.get(`${channelId}/${id}`);
  }
}

const LINK = /^\/attachments\/(\d{17,20})\/(\d{17,20})\/([^/?#]{1,255})$/;

/** Routes: the CDN's attachment links and the bot's refresh of expired ones. */
export function attachmentRoutes(app: FastifyInstance, engine: SandboxEngine, store: AttachmentStore, cdnBase: string): void {
  app.get('/cdn/attachments/:channel/:attachment/:filename', async (req, reply) => {
    const { channel, attachment, filename } = req.params as Record<string, string>;
    const query = req.query as Record<string, unknown>;
    const [ex, is, hm] = [query.ex, query.is, query.hm].map((v) => (typeof v === 'string' ? v : ''));
    const file = store.get(channel ?? '', attachment ?? '');
    const valid =
      file !== undefined &&
      file.filename === filename &&
      /^[0-9a-f]{1,12}$/.test(ex!) &&
      /^[0-9a-f]{1,12}$/.test(is!) &&
      /^[0-9a-f]{64}$/.test(hm!) &&
      safeEqual(hm!, attachmentSignature(channel!, attachment!, filename!, ex!, is!)) &&
      Number.parseInt(ex!, 16) * 1000 > engine.now();
    if (!valid) return reply.code(404).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('This content is no longer available.');
    return reply
      .type(file.contentType)
      .header('content-security-policy', 'sandbox')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=3600')
      .send(file.body);
  });

  app.post('/api/v10/attachments/refresh-urls', async (req, reply) => {
    if (callerOf(req, engine).kind !== 'bot') return unauthorized(reply);
    // The sandbox's parser hands /api/v10 bodies over raw (body.ts): JSON only.
    let parsed: unknown;
    try {
      parsed = req.body instanceof RawBody && /^application\/json\b/i.test(req.body.contentType) ? JSON.parse(req.body.bytes.toString('utf8')) : undefined;
    } catch {
      return reply.code(400).send({ message: 'The request body contains invalid JSON.', code: 50109 });
    }
    const urls = (parsed as { attachment_urls?: unknown } | undefined)?.attachment_urls;
    if (!Array.isArray(urls) || urls.length === 0 || urls.length > 50 || !urls.every((u) => typeof u === 'string' && u.length <= 2048)) {
      return reply.code(400).send({ message: 'Invalid Form Body', code: 50035, errors: { attachment_urls: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 50 in length.' }] } } });
    }
    const refreshed = (urls as string[]).flatMap((original) => {
      let path: string;
      try {
        const url = new URL(original);
        path = url.pathname.startsWith(new URL(cdnBase).pathname) ? url.pathname.slice(new URL(cdnBase).pathname.length) : url.pathname;
      } catch {
        return [];
      }
      const match = LINK.exec(path);
      const file = match ? store.get(match[1]!, match[2]!) : undefined;
      if (!match || !file || file.filename !== decodeURIComponent(match[3]!)) return [];
      const { ex, is, hm } = signAttachment(file.channelId, file.id, file.filename, engine.now());
      return [{ original, refreshed: `${cdnBase}/attachments/${file.channelId}/${file.id}/${encodeURIComponent(file.filename)}?ex=${ex}&is=${is}&hm=${hm}&` }];
    });
    return reply.send({ refreshed_urls: refreshed });
  });
}
