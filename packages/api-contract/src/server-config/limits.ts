/**
 * Discord's documented message, component and modal limits (docs: Resources > Message > Embed
 * Limits; Components; Interactions > Modals; Resources > Channel), the one copy every check uses:
 * the server-config schemas, `validateMessagePayload`, the dashboard's counters and the sandbox.
 * No zod and no Node API here: the dashboard imports these constants on their own.
 */

/** Message `content`. */
export const MESSAGE_CONTENT_MAX = 2000;
/** Embeds in one message. */
export const MESSAGE_EMBEDS_MAX = 10;
/** Action rows (top-level components) in one message. */
export const MESSAGE_ACTION_ROWS_MAX = 5;
/** Buttons in one action row (a row holds up to 5 buttons or exactly 1 select menu). */
export const ACTION_ROW_BUTTONS_MAX = 5;
/** Select menus in one action row (and then nothing else). */
export const ACTION_ROW_SELECTS_MAX = 1;

/** Embed title. */
export const EMBED_TITLE_MAX = 256;
/** Embed description. */
export const EMBED_DESCRIPTION_MAX = 4096;
/** Fields in one embed. */
export const EMBED_FIELDS_MAX = 25;
/** Embed field name. */
export const EMBED_FIELD_NAME_MAX = 256;
/** Embed field value. */
export const EMBED_FIELD_VALUE_MAX = 1024;
/** Embed footer text. */
export const EMBED_FOOTER_TEXT_MAX = 2048;
/** Embed author name. */
export const EMBED_AUTHOR_NAME_MAX = 256;
/**
 * Title, description, field names and values, footer text and author name of all the embeds of one
 * message, together.
 */
export const EMBEDS_TOTAL_MAX = 6000;

/** Button label. */
export const BUTTON_LABEL_MAX = 80;
/** A component's `custom_id` is 1 to 100 characters, unique within its message (or modal). */
export const CUSTOM_ID_MIN = 1;
export const CUSTOM_ID_MAX = 100;

/** Options of one select menu. */
export const SELECT_OPTIONS_MAX = 25;
/** Select menu placeholder. */
export const SELECT_PLACEHOLDER_MAX = 150;
/** Select option label, value and description (each). */
export const SELECT_OPTION_LABEL_MAX = 100;
export const SELECT_OPTION_VALUE_MAX = 100;
export const SELECT_OPTION_DESCRIPTION_MAX = 100;

/** Modal title. */
export const MODAL_TITLE_MAX = 45;
/** Text inputs in one modal. */
export const MODAL_TEXT_INPUTS_MAX = 5;
/** Text input label. */
export const TEXT_INPUT_LABEL_MAX = 45;
/** Text input placeholder. */
export const TEXT_INPUT_PLACEHOLDER_MAX = 100;
/** Text input value, and the largest `min_length` / `max_length` (`min_length` may be 0). */
export const TEXT_INPUT_VALUE_MAX = 4000;
/** Modal `custom_id`. */
export const MODAL_CUSTOM_ID_MAX = 100;

/** Guild channel name. */
export const CHANNEL_NAME_MIN = 1;
export const CHANNEL_NAME_MAX = 100;

/**
 * How Discord counts the characters of a text against the limits above: Unicode code points, not
 * UTF-16 units (`[...text].length`: '😀' counts 1, '👩‍👩‍👧' counts 5). The dashboard's counters and
 * the sandbox use this function so that all three agree. Why: docs/api.md#discord-text-length.
 */
export function discordLength(text: string): number {
  let count = 0;
  // for...of walks code points (a surrogate pair is one step), without building an array.
  for (const _ of text) count++;
  return count;
}
