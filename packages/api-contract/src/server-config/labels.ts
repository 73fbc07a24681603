/** Ticket labels: the coloured tags staff put on tickets (the Tickets page, Statistics' label filter). */
import { z } from '../zod-setup';
import { Colour, ShortId } from './fields';

/** Labels one server may define. */
export const TICKET_LABELS_CONFIG_MAX = 25;
export const TICKET_LABEL_NAME_MAX = 32;

export const TicketLabelId = ShortId;
export const TicketLabel = z
  .object({
    id: TicketLabelId,
    name: z.string().trim().min(1, 'A label needs a name.').max(TICKET_LABEL_NAME_MAX, `A label's name may be at most ${TICKET_LABEL_NAME_MAX} characters.`),
    /** 0xRRGGBB. */
    colour: Colour,
  })
  .strict();
export type TicketLabel = z.infer<typeof TicketLabel>;
