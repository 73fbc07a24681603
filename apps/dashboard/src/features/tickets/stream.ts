/**
 * The Tickets page's live updates: `GET /api/guilds/:server/tickets/stream` (server-sent events; with
 * `?ticket=` that ticket's frames too). The browser's EventSource reconnects by itself and sends
 * `Last-Event-ID`, so the server resumes after the last frame; when the server ends the stream for
 * good (an error answer), a new one is opened after a growing wait. A new stream starts from now:
 * `onOpened(at)` lets the page read again what it read before that moment (what changed in between
 * would otherwise be missed; the contract's stream takes no cursor).
 */
import type { TicketStreamEvent } from '@tickety/api-contract';
import { useEffect, useRef, useState } from 'react';
import { streamUrl } from './api';

export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'unsupported';

const EVENT_TYPES = ['messages', 'ticket', 'commands', 'queue'] as const satisfies readonly TicketStreamEvent['type'][];

/** Waits before opening a new stream after the server closed one: 1 s, doubling, at most 30 s. */
export function backoff(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** attempt);
}

/** Whether a frame's data has the shape of the event its `event:` names (the page trusts nothing else). */
function parseFrame(type: TicketStreamEvent['type'], data: string): TicketStreamEvent | null {
  try {
    const parsed = JSON.parse(data) as { type?: unknown };
    return parsed && typeof parsed === 'object' && parsed.type === type ? (parsed as TicketStreamEvent) : null;
  } catch {
    return null;
  }
}

interface StreamHandlers {
  onEvent: (event: TicketStreamEvent) => void;
  /** A new stream is open (not the browser's own reconnection): what was read before `at` may have missed changes. */
  onOpened: (at: number) => void;
}

/** Subscribes to the stream while mounted (a new one when the server or ticket changes); the status says whether it is live. */
export function useTicketStream(server: string, ticket: string | null, handlers: StreamHandlers): StreamStatus {
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    if (server === '') return;
    if (typeof EventSource !== 'function') {
      setStatus('unsupported');
      return;
    }
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let stopped = false;
    const open = (resumed: boolean) => {
      const current = new EventSource(streamUrl(server, ticket), { withCredentials: true });
      source = current;
      setStatus(resumed ? 'reconnecting' : 'connecting');
      let first = true;
      current.onopen = () => {
        attempt = 0;
        setStatus('live');
        if (first) latest.current.onOpened(Date.now());
        first = false;
      };
      current.onerror = () => {
        if (stopped) return;
        setStatus('reconnecting');
        // CONNECTING: the browser retries on its own (with Last-Event-ID). CLOSED: it gave up.
        if (current.readyState !== EventSource.CLOSED) return;
        current.close();
        timer = setTimeout(() => open(true), backoff(attempt++));
      };
      for (const type of EVENT_TYPES) {
        current.addEventListener(type, (event) => {
          const frame = parseFrame(type, (event as MessageEvent<string>).data);
          if (frame) latest.current.onEvent(frame);
        });
      }
    };
    open(false);
    return () => {
      stopped = true;
      clearTimeout(timer);
      (source as EventSource | null)?.close();
    };
  }, [server, ticket]);

  return status;
}
