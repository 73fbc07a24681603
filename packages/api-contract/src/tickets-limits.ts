/**
 * The Tickets page's limits and filter names, without zod (tickets-api.ts re-exports them): the
 * dashboard imports these constants on their own, so its page does not carry the schemas.
 */

/** Discord's upload limit for a server without boosts (bytes): a reply's attachments together stay under it. */
export const REPLY_ATTACHMENTS_MAX_BYTES = 10 * 1024 * 1024;
/** Files one reply may carry (Discord allows 10). */
export const REPLY_ATTACHMENTS_MAX = 10;
/** Characters of the last message a queue row shows. */
export const TICKET_EXCERPT_MAX = 200;

export const TICKET_QUEUE_FILTERS = ['all', 'mine', 'unclaimed', 'waiting'] as const;
