/**
 * The body worker's thread: inflates, parses and validates the bot API's large bodies (event and
 * message batches up to 1 MiB, transcripts up to 64 MB of JSON) and makes a transcript's stored bytes, so that none
 * of it holds the API's event loop. The protocol is lib/body-worker.ts's; errors travel as the
 * catalogue's name, status and message.
 */
import { parentPort } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { TicketEventBatch, TicketMessageBatch, TranscriptV2 } from '@tickety/api-contract';
import type { ZodType } from 'zod';
import type { WorkerReply, WorkerRequest, WireError } from '../lib/body-worker';
import { ApiHttpError } from '../lib/errors';
import { parseUntrustedJson } from '../lib/json-body';
import { artifactsOf, outlineOf } from '../services/transcript-prep';

/** Transcripts read but not yet stored (their attachments are being copied), by handle. */
const drafts = new Map<number, { transcript: TranscriptV2; expires: number }>();
/** A draft not finished within this long is dropped (the request failed or hung up). */
const DRAFT_TTL_MS = 5 * 60_000;
let nextHandle = 1;

function inflate(raw: Uint8Array, encoding: string, max: number): string {
  let bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  if (encoding === 'gzip') {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: max });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
        throw new ApiHttpError('PAYLOAD_TOO_LARGE', { message: `The body inflates to more than ${max / 1024 / 1024} MiB: nothing was stored.` });
      }
      throw new ApiHttpError('VALIDATION_FAILED', { message: 'The body is not valid gzip.' });
    }
  }
  if (bytes.length > max) throw new ApiHttpError('PAYLOAD_TOO_LARGE', { message: `The body is larger than ${max / 1024 / 1024} MiB: nothing was stored.` });
  return bytes.toString('utf8');
}

/** Parses and validates as the route's schema would (the same words as the API's validation errors). */
function read<T>(schema: ZodType<T>, raw: Uint8Array, encoding: string, max: number): T {
  const parsed = schema.safeParse(parseUntrustedJson(inflate(raw, encoding, max)));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join('.');
  throw new ApiHttpError('VALIDATION_FAILED', { message: `The request's body${field ? ` "${field}"` : ''} is not valid: ${issue?.message ?? 'it does not match'}.` });
}

function wire(error: unknown): WireError {
  if (error instanceof ApiHttpError) {
    return { errorName: error.errorName, httpStatus: error.statusCode, message: error.message, ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }) };
  }
  return { errorName: 'INTERNAL', httpStatus: 500, message: error instanceof Error ? `${error.name}: ${error.message}` : String(error), unexpected: true };
}

function handle(request: WorkerRequest): { reply: WorkerReply; transfer: ArrayBuffer[] } {
  const now = Date.now();
  for (const [key, draft] of drafts) if (draft.expires < now) drafts.delete(key);
  switch (request.op) {
    case 'events':
      return { reply: { id: request.id, ok: true, value: read(TicketEventBatch, request.raw, request.encoding, request.max) }, transfer: [] };
    case 'messages':
      return { reply: { id: request.id, ok: true, value: read(TicketMessageBatch, request.raw, request.encoding, request.max) }, transfer: [] };
    case 'transcript': {
      const transcript = read(TranscriptV2, request.raw, request.encoding, request.max);
      const draft = nextHandle++;
      drafts.set(draft, { transcript, expires: now + DRAFT_TTL_MS });
      return { reply: { id: request.id, ok: true, value: { handle: draft, outline: outlineOf(transcript) } }, transfer: [] };
    }
    case 'finish': {
      const draft = drafts.get(request.handle);
      drafts.delete(request.handle);
      if (!draft) throw new ApiHttpError('OVERLOADED', { retryAfter: 1, message: 'The upload took too long to store: send it again.' });
      const artifacts = artifactsOf(draft.transcript, new Map(request.copies));
      return { reply: { id: request.id, ok: true, value: artifacts }, transfer: [artifacts.content.buffer as ArrayBuffer, artifacts.head.buffer as ArrayBuffer] };
    }
    case 'drop':
      drafts.delete(request.handle);
      return { reply: { id: request.id, ok: true, value: null }, transfer: [] };
  }
}

parentPort?.on('message', (request: WorkerRequest) => {
  try {
    const { reply, transfer } = handle(request);
    parentPort!.postMessage(reply, transfer);
  } catch (error) {
    parentPort!.postMessage({ id: request.id, ok: false, error: wire(error) } satisfies WorkerReply);
  }
});
