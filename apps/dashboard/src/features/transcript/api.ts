/**
 * The transcript viewers' reads. v2: the stored JSON at `/api/transcripts/v2/:server/:fileid`, its
 * head (the first messages and the count, a few kilobytes) first, then the whole; both mark the
 * dashboard's own read, so the API logs the view. v1: the address of the API's sanitised copy of a
 * Discord attachment.
 */
import type { TranscriptHead, TranscriptV2 } from '@tickety/api-contract';
import { buildUrl, request } from '@tickety/shared';

export function transcriptPath(server: string, fileid: string): string {
  return `/api/transcripts/v2/${encodeURIComponent(server)}/${encodeURIComponent(fileid)}`;
}

export function readTranscriptHead(path: string): Promise<TranscriptHead> {
  return request<TranscriptHead>({ path, query: { part: 'head' }, fromDashboard: true, gzip: true });
}

export function readTranscript(path: string): Promise<TranscriptV2> {
  return request<TranscriptV2>({ path, fromDashboard: true, gzip: true });
}

/** The v1 file's address at the API, from the parts of the page's address (each encoded). */
export function v1FileUrl(parts: readonly string[]): string {
  return buildUrl(`/api/transcripts/v1/${parts.map(encodeURIComponent).join('/')}`);
}
