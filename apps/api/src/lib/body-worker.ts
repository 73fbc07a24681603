import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { ErrorCodeName, TicketEventBatch, TicketMessageBatch } from '@tickety/api-contract';
import type { CopiedAttachments, TranscriptArtifacts, TranscriptOutline } from '../services/transcript-prep';
import { ApiHttpError } from './errors';

/**
 * The bot API's large bodies (an event batch inflates to 1 MiB, a transcript to 64 MB) are inflated,
 * parsed, validated and, for a transcript, turned into its stored bytes on a worker thread
 * (workers/body-worker.ts): on the event loop a 64 MB transcript took ~1.5 s of parsing, validation
 * and serialisation, during which the instance answered nobody. One worker per instance, started on
 * first use; at most BODY_WORKER_QUEUE_BYTES of bodies wait for it (past that: 503 code 1011 with
 * Retry-After, the bot sends again). A worker that dies fails what it held (503) and is started again.
 */
const BODY_WORKER_QUEUE_BYTES = 256 * 1024 * 1024;

export type WorkerRequest =
  | { id: number; op: 'events'; raw: Uint8Array; encoding: string; max: number }
  | { id: number; op: 'messages'; raw: Uint8Array; encoding: string; max: number }
  | { id: number; op: 'transcript'; raw: Uint8Array; encoding: string; max: number }
  | { id: number; op: 'finish'; handle: number; copies: Array<[string, { path: string; size: number }]> }
  | { id: number; op: 'drop'; handle: number };

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

export interface WireError {
  errorName: ErrorCodeName;
  httpStatus: number;
  message: string;
  retryAfter?: number;
  /** Not an ApiHttpError in the worker: a bug, logged and answered 1500. */
  unexpected?: boolean;
}

export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

/** A transcript read by the worker and waiting there for its attachments to be copied. */
export interface TranscriptDraft {
  outline: TranscriptOutline;
  /** Makes the stored bytes with the copies' addresses (the draft is gone afterwards). */
  finish(copies: CopiedAttachments): Promise<TranscriptArtifacts>;
  /** Forgets the draft (the upload was refused). */
  discard(): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  bytes: number;
}

/**
 * Starts the worker's code: the bundle's sibling in a build (dist/body-worker.js), else the TypeScript
 * source through tsx's loader, registered inside the thread (under vitest or `tsx watch`; a worker
 * does not inherit the parent's loader on Node 20).
 */
function startWorker(options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./body-worker.js', import.meta.url), options);
  const source = new URL('../workers/body-worker.ts', import.meta.url).href;
  const tsx = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const boot = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { ...options, eval: true });
}

export class BodyWorker {
  #worker: Worker | null = null;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #queuedBytes = 0;
  #closed = false;

  constructor(
    private readonly log: { warn(fields: object, msg: string): void; error(fields: object, msg: string): void },
    private readonly maxQueuedBytes = BODY_WORKER_QUEUE_BYTES,
  ) {}

  /** An event batch, inflated, parsed and validated (TicketEventBatch). */
  events(raw: Buffer, encoding: string, max: number): Promise<TicketEventBatch> {
    return this.#call({ op: 'events', raw: new Uint8Array(raw), encoding, max }, raw.length) as Promise<TicketEventBatch>;
  }

  messages(raw: Buffer, encoding: string, max: number): Promise<TicketMessageBatch> {
    return this.#call({ op: 'messages', raw: new Uint8Array(raw), encoding, max }, raw.length) as Promise<TicketMessageBatch>;
  }

  /** A transcript, inflated, parsed and validated (TranscriptV2), kept in the worker until finished. */
  async transcript(raw: Buffer, encoding: string, max: number): Promise<TranscriptDraft> {
    const { handle, outline } = (await this.#call({ op: 'transcript', raw: new Uint8Array(raw), encoding, max }, raw.length)) as { handle: number; outline: TranscriptOutline };
    let open = true;
    return {
      outline,
      finish: (copies) => {
        open = false;
        return this.#call({ op: 'finish', handle, copies: [...copies] }, 0) as Promise<TranscriptArtifacts>;
      },
      discard: () => {
        if (!open) return;
        open = false;
        this.#call({ op: 'drop', handle }, 0).catch(() => undefined);
      },
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await worker.terminate();
  }

  #call(request: WithoutId<WorkerRequest>, bytes: number): Promise<unknown> {
    if (this.#closed) return Promise.reject(new ApiHttpError('OVERLOADED', { retryAfter: 5, message: 'This server is restarting: try again in a moment.' }));
    if (bytes > 0 && this.#queuedBytes + bytes > this.maxQueuedBytes) {
      return Promise.reject(new ApiHttpError('OVERLOADED', { retryAfter: 5, message: 'Too many large uploads are being read on this server: send this one again in a few seconds.' }));
    }
    const worker = this.#start();
    const id = this.#nextId++;
    this.#queuedBytes += bytes;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject, bytes });
      const message = { ...request, id } as WorkerRequest;
      // The body's bytes move to the worker (transferred, not copied).
      const raw = 'raw' in request ? request.raw : null;
      const transfer = raw && raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength ? [raw.buffer as ArrayBuffer] : [];
      worker.postMessage(message, transfer);
    });
  }

  #settle(reply: WorkerReply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    this.#queuedBytes -= pending.bytes;
    if (reply.ok) {
      pending.resolve(reply.value);
      return;
    }
    const { errorName, httpStatus, message, retryAfter, unexpected } = reply.error;
    if (unexpected) {
      this.log.error({ err: message }, 'body worker: unexpected error');
      pending.reject(new ApiHttpError('INTERNAL'));
      return;
    }
    pending.reject(new ApiHttpError(errorName, { httpStatus, message, ...(retryAfter === undefined ? {} : { retryAfter }) }));
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    // A heap of its own, bounded: a body that would need more fails alone (the worker is restarted).
    const worker = startWorker({ resourceLimits: { maxOldGenerationSizeMb: 2048 } });
    worker.unref();
    worker.on('message', (reply: WorkerReply) => this.#settle(reply));
    const fail = (why: string) => {
      if (this.#worker === worker) this.#worker = null;
      if (this.#pending.size > 0) this.log.warn({ why, pending: this.#pending.size }, 'body worker stopped: the bodies it held are refused (503)');
      for (const [id, pending] of this.#pending) {
        this.#pending.delete(id);
        this.#queuedBytes -= pending.bytes;
        pending.reject(new ApiHttpError('OVERLOADED', { retryAfter: 5, message: 'This upload could not be read: send it again in a few seconds.' }));
      }
    };
    worker.on('error', (error) => fail(error.message));
    worker.on('exit', (code) => fail(`exit ${code}`));
    this.#worker = worker;
    return worker;
  }
}
