/**
 * The Tickets page (`/dashboard/:server/tickets`): the reads of the queue and of one ticket, the
 * commands staff send the bot, the labels' save, and a reply's file uploads (tickets-api.ts of the
 * contract). Not through the overlay: the page shows each failure in place, with its own Retry.
 */
import type { ReplyAttachment, TicketCommandRequest, TicketCommandView, TicketDetail, TicketLabel, TicketQueue, TicketQueueFilter, TicketTags } from '@tickety/api-contract';
import { ApiRequestError, api, buildUrl } from '@tickety/shared';

export interface QueueArgs {
  server: string;
  filter: TicketQueueFilter;
  panel?: string;
  label?: string;
  q?: string;
}

export interface TicketArgs {
  server: string;
  ticket: string;
}

const base = (server: string) => `/api/guilds/${encodeURIComponent(server)}/tickets`;
const ticketPath = (server: string, ticket: string) => `${base(server)}/${encodeURIComponent(ticket)}`;

/** The stream's address: queue events only, or with `ticket` that ticket's messages, summary and commands too. */
export function streamUrl(server: string, ticket: string | null): string {
  return buildUrl(`${base(server)}/stream`, { ticket: ticket ?? undefined });
}

const ticketsApi = api.enhanceEndpoints({ addTagTypes: ['TicketQueue', 'Ticket'] }).injectEndpoints({
  endpoints: (build) => ({
    ticketQueue: build.query<TicketQueue, QueueArgs>({
      query: ({ server, ...query }) => ({ path: base(server), query, overlay: false }),
      providesTags: (_result, _error, { server }) => [{ type: 'TicketQueue', id: server }],
      keepUnusedDataFor: 30,
    }),
    ticketDetail: build.query<TicketDetail, TicketArgs>({
      query: ({ server, ticket }) => ({ path: ticketPath(server, ticket), overlay: false }),
      providesTags: (_result, _error, { server, ticket }) => [{ type: 'Ticket', id: `${server}/${ticket}` }],
      keepUnusedDataFor: 30,
    }),
    /** Asks the bot to act on a ticket: answered 202 with the command, whose progress the stream reports. */
    ticketCommand: build.mutation<TicketCommandView, TicketArgs & { command: TicketCommandRequest }>({
      query: ({ server, ticket, command }) => ({ path: `${ticketPath(server, ticket)}/commands`, method: 'POST', body: command, overlay: false }),
    }),
    /** The server's tags (canned replies), for the reply box's `/` list. */
    ticketTags: build.query<TicketTags, { server: string }>({
      query: ({ server }) => ({ path: `${base(server)}/tags`, overlay: false }),
      keepUnusedDataFor: 60,
    }),
    /** The whole list of labels, saved as a new configuration version (`version`: the one it was read at). */
    saveTicketLabels: build.mutation<{ labels: TicketLabel[]; version: number }, { server: string; labels: TicketLabel[]; version: number | null }>({
      query: ({ server, labels, version }) => ({ path: `${base(server)}/labels`, method: 'PUT', body: { labels, version }, overlay: false }),
      invalidatesTags: (_result, _error, { server }) => [
        { type: 'TicketQueue', id: server },
        { type: 'ServerConfig', id: server },
      ],
    }),
  }),
});

export const { useTicketQueueQuery, useTicketDetailQuery, useTicketCommandMutation, useSaveTicketLabelsMutation, useTicketTagsQuery } = ticketsApi;

/** Re-reads the queue (a `queue` frame of the stream says it changed). */
export const refetchQueue = (server: string) => ticketsApi.util.invalidateTags([{ type: 'TicketQueue', id: server }]);

/**
 * Uploads one file for a reply (`POST .../attachments`, the raw file, `x-filename` its name, URI
 * encoded), reporting the bytes sent. XMLHttpRequest, because fetch reports no upload progress.
 */
export function uploadAttachment(args: TicketArgs & { file: File; onProgress: (sent: number) => void; signal: AbortSignal }): Promise<ReplyAttachment> {
  const { server, ticket, file, onProgress, signal } = args;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(`${ticketPath(server, ticket)}/attachments`));
    xhr.withCredentials = true;
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('x-requested-with', 'tickety');
    xhr.setRequestHeader('x-filename', encodeURIComponent(file.name));
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    const fail = (kind: 'network' | 'cancelled') => reject(new ApiRequestError(kind, kind === 'cancelled' ? 'Cancelled.' : 'The upload did not reach the server.'));
    xhr.onerror = () => fail('network');
    xhr.onabort = () => fail('cancelled');
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body) {
        onProgress(file.size);
        resolve(body as ReplyAttachment);
        return;
      }
      const apiBody = body && typeof body === 'object' && 'code' in body && 'message' in body ? (body as { code: number; message: string; isAuthenticated: boolean }) : null;
      reject(new ApiRequestError('http', apiBody?.message ?? `HTTP ${xhr.status}`, { status: xhr.status, body: apiBody }));
    };
    signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}
