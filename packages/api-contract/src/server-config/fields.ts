/**
 * Building blocks of the server-config schemas: Discord-counted text, ids, links, colours, and the
 * duplicate check. Every message is a sentence a form can show under its field as it is.
 */
import { z } from '../zod-setup';
import { Snowflake } from '../auth';
import { discordLength } from './limits';

/** A count as a reader writes it, the same in every locale ("6,000"). */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

/**
 * A string whose length Discord checks: at most `max` code points (see `discordLength`), and, when
 * `required`, not blank. The issues are zod's `too_big` / `too_small` with `origin: 'string'` and
 * `maximum` / `minimum`, so a translated front end can build its own sentence from them.
 */
export function discordText(max: number, options: { required?: boolean } = {}) {
  const required = options.required ?? false;
  return z.string().superRefine((value, ctx) => {
    const length = discordLength(value);
    if (length > max) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'string',
        maximum: max,
        inclusive: true,
        input: value,
        message: `Must be at most ${formatCount(max)} characters (this is ${formatCount(length)}).`,
      });
    } else if (required && value.trim() === '') {
      ctx.addIssue({
        code: 'too_small',
        origin: 'string',
        minimum: 1,
        inclusive: true,
        input: value,
        message: 'Must not be empty.',
      });
    }
  });
}

/** Most characters of a link the dashboard stores (image, thumbnail). */
export const URL_MAX = 2048;

/** An http(s) link (embed image and thumbnail). */
export const HttpUrl = z
  .url({ protocol: /^https?$/, error: 'Must be a link starting with https:// (or http://).' })
  .superRefine((value, ctx) => {
    if (value.length > URL_MAX) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'string',
        maximum: URL_MAX,
        inclusive: true,
        input: value,
        message: `Must be at most ${formatCount(URL_MAX)} characters long.`,
      });
    }
  });

/** Most characters of a panel, multi-panel or form-question id. */
export const SHORT_ID_MAX = 32;
/** A panel, multi-panel or form-question id: short, URL- and custom-id-safe. */
export const SHORT_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
export const ShortId = z
  .string()
  .regex(SHORT_ID_PATTERN, `Must be 1 to ${SHORT_ID_MAX} letters, digits, '-' or '_'.`);

/** Largest embed colour (0xFFFFFF, white). */
export const COLOUR_MAX = 0xffffff;
const COLOUR_MESSAGE = 'Must be a colour from #000000 to #FFFFFF (an integer from 0 to 16777215).';
/** An embed colour as Discord takes it: an integer 0x000000 to 0xFFFFFF. */
export const Colour = z.int({ error: COLOUR_MESSAGE }).min(0, COLOUR_MESSAGE).max(COLOUR_MAX, COLOUR_MESSAGE);

/**
 * Calls `report(index, firstIndex)` for every item whose key an earlier item already had (the
 * first one stays unflagged: the form marks the copy). Items without a key are skipped.
 */
export function forEachDuplicate<T>(
  items: readonly T[],
  key: (item: T) => string | undefined,
  report: (index: number, firstIndex: number) => void,
): void {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const itemKey = key(item);
    if (itemKey === undefined) return;
    const first = seen.get(itemKey);
    if (first === undefined) seen.set(itemKey, index);
    else report(index, first);
  });
}

/** A list of role ids: at most `max`, each once. */
export function roleIdList(max: number) {
  return z
    .array(Snowflake)
    .max(max, `Choose at most ${max} roles.`)
    .superRefine((ids, ctx) => {
      forEachDuplicate(
        ids,
        (id) => id,
        (index) => ctx.addIssue({ code: 'custom', path: [index], input: ids[index], message: 'This role is already in the list.' }),
      );
    });
}
