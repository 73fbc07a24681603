/** A calendar date "YYYY-MM-DD" that exists (not 2026-02-30): how addresses keep days. */
export function isDay(value: string | null | undefined): value is string {
  if (!value) return false;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(y, mo - 1, d);
  return date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d;
}

function localDay(day: string, offsetDays = 0): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + offsetDays);
}

/** The first instant of a day in the viewer's time zone, as ISO (UTC). */
export function startOfDay(day: string): string {
  return localDay(day).toISOString();
}

/** The last instant (millisecond) of a day in the viewer's time zone, as ISO (UTC): the API's `to` is inclusive. */
export function endOfDay(day: string): string {
  return new Date(localDay(day, 1).getTime() - 1).toISOString();
}
