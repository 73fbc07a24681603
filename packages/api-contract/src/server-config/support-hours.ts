/** A panel's support hours (premium): weekly opening times in a time zone, and what to say outside them. */
import { z } from '../zod-setup';
import { discordText } from './fields';
import { MESSAGE_CONTENT_MAX } from './limits';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Most opening ranges on one day. */
export const SUPPORT_HOURS_RANGES_PER_DAY_MAX = 4;

// Shape of an IANA zone name ('Europe/Berlin', 'America/Argentina/Buenos_Aires', 'Etc/GMT+1', 'UTC'):
// rules out what Intl takes but other tz databases do not (offsets such as '+01:00', other casing).
const IANA_NAME = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z0-9][A-Za-z0-9_+-]*)*$/;

/** Whether `name` is an IANA time zone this JavaScript engine knows (checked with Intl). */
export function isTimeZone(name: string): boolean {
  if (!IANA_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name such as 'Europe/Berlin'. */
export const TimeZone = z.string().superRefine((name, ctx) => {
  if (!isTimeZone(name)) {
    ctx.addIssue({
      code: 'custom',
      input: name,
      message: `Unknown time zone '${name.slice(0, 64)}': use a name from the time-zone database such as Europe/Berlin or America/New_York.`,
    });
  }
});

/** Minutes since midnight of 'HH:MM' (00:00 to 24:00), or null when it is not such a time. */
export function minutesOfDay(time: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  if (match) return Number(match[1]) * 60 + Number(match[2]);
  return time === '24:00' ? 24 * 60 : null;
}

const time = (what: string, allowEndOfDay: boolean) =>
  z.string().refine((t) => {
    const minutes = minutesOfDay(t);
    return minutes !== null && (allowEndOfDay || minutes < 24 * 60);
  }, `The ${what} time must be HH:MM on a 24-hour clock (00:00 to ${allowEndOfDay ? '24:00' : '23:59'}).`);

/**
 * One opening range on one day, `from` to `to` (24:00 for the end of the day). A range past
 * midnight is two ranges: 22:00-24:00 and, on the next day, 00:00-02:00.
 */
export const OpeningRange = z
  .object({ from: time('start', false), to: time('end', true) })
  .superRefine((range, ctx) => {
    const from = minutesOfDay(range.from);
    const to = minutesOfDay(range.to);
    // A start of 24:00 already has its own message.
    if (from !== null && from < 24 * 60 && to !== null && to <= from) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        input: range.to,
        message: `The end (${range.to}) must be after the start (${range.from}). For hours past midnight, add a range on the next day.`,
      });
    }
  });
export type OpeningRange = z.infer<typeof OpeningRange>;

const dayRanges = z
  .array(OpeningRange)
  .max(SUPPORT_HOURS_RANGES_PER_DAY_MAX, `At most ${SUPPORT_HOURS_RANGES_PER_DAY_MAX} ranges a day.`)
  .superRefine((ranges, ctx) => {
    ranges.forEach((range, index) => {
      const from = minutesOfDay(range.from);
      const to = minutesOfDay(range.to);
      if (from === null || to === null || to <= from) return;
      const earlier = ranges.slice(0, index).find((other) => {
        const [a, b] = [minutesOfDay(other.from), minutesOfDay(other.to)];
        return a !== null && b !== null && a < to && from < b;
      });
      if (earlier) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'from'],
          input: range.from,
          message: `This range overlaps ${earlier.from}-${earlier.to} on the same day.`,
        });
      }
    });
  });

/** Opening ranges per weekday (an empty list: closed that day). */
export const WeeklyHours = z.object(
  Object.fromEntries(WEEKDAYS.map((day) => [day, dayRanges])) as Record<Weekday, typeof dayRanges>,
);
export type WeeklyHours = z.infer<typeof WeeklyHours>;

export const SupportHours = z
  .object({
    timeZone: TimeZone,
    hours: WeeklyHours,
    /** Posted in the new ticket when it is opened out of hours (Discord markdown, as message content). */
    outOfHoursMessage: discordText(MESSAGE_CONTENT_MAX, { required: true }),
  })
  .superRefine((support, ctx) => {
    if (WEEKDAYS.every((day) => support.hours[day].length === 0)) {
      ctx.addIssue({
        code: 'custom',
        path: ['hours'],
        input: support.hours,
        message: 'Support hours need at least one opening range; to take tickets at any time, turn support hours off.',
      });
    }
  });
export type SupportHours = z.infer<typeof SupportHours>;
