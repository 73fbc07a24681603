/** The queue's filters as they live in the address (`?filter=waiting&panel=…&label=…&q=…`), so a view can be shared and survives opening a ticket. */
import { TICKET_QUEUE_FILTERS, type TicketQueueFilter } from '@tickety/api-contract';
import type { HrefQuery } from '@tickety/shared';

export interface QueueView {
  filter: TicketQueueFilter;
  panel?: string;
  label?: string;
  q?: string;
}

const PANEL_OR_LABEL = /^[A-Za-z0-9_-]{1,64}$/;

/** The filters in an address's query; anything malformed is left out. */
export function viewOf(params: URLSearchParams): QueueView {
  const filter = params.get('filter');
  const view: QueueView = { filter: (TICKET_QUEUE_FILTERS as readonly string[]).includes(filter ?? '') ? (filter as TicketQueueFilter) : 'all' };
  const panel = params.get('panel');
  const label = params.get('label');
  const search = params.get('q')?.trim().slice(0, 100);
  if (panel && PANEL_OR_LABEL.test(panel)) view.panel = panel;
  if (label && PANEL_OR_LABEL.test(label)) view.label = label;
  if (search) view.q = search;
  return view;
}

/** The query an address keeps the filters in ('all' is left out). */
export function queueQuery(view: QueueView): HrefQuery {
  return { filter: view.filter === 'all' ? undefined : view.filter, panel: view.panel, label: view.label, q: view.q };
}
