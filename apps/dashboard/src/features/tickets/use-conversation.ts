import type { TicketStreamEvent } from '@tickety/api-contract';
import { useCallback, useEffect, useState } from 'react';
import { useTicketDetailQuery } from './api';
import { applyEvent, type Conversation, withDetail } from './model';

/** The read of one ticket, as the pane shows its loading and failure. */
export type TicketRead = ReturnType<typeof useTicketDetailQuery>;

/**
 * One ticket's conversation as the page keeps it: its read (again after the stream was lost) joined
 * with the stream's frames, one message and one command per id, the later winning.
 */
export function useConversation(server: string, ticket: string | null) {
  const detail = useTicketDetailQuery({ server, ticket: ticket ?? '' }, { skip: server === '' || ticket === null, refetchOnMountOrArgChange: true });
  const [conversation, setConversation] = useState<Conversation | null>(null);
  const data = detail.currentData;
  useEffect(() => {
    if (data) setConversation((current) => withDetail(current, data));
  }, [data]);
  useEffect(() => {
    if (ticket === null) setConversation(null);
  }, [ticket]);
  const apply = useCallback((event: TicketStreamEvent) => setConversation((current) => (current ? applyEvent(current, event) : current)), []);
  const shown = conversation && ticket !== null && conversation.ticket.id === ticket ? conversation : null;
  return { conversation: shown, detail, apply };
}
