/** A calendar date "YYYY-MM-DD" that exists (not 2026-02-30): how addresses keep days. */
export function isDay(value: string | null | undefined): value is string {
  if (!value) return false;
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!parts) return false;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const date = new Date(year, month - 1, day);
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day;
}

function localDay(day: string, offsetDays = 0): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date + offsetDays);
}

/** The first instant of a day in the viewer's time zone, as ISO (UTC). */
export function startOfDay(day: string): string {
  return localDay(day).toISOString();
}

/** The last instant (millisecond) of a day in the viewer's time zone, as ISO (UTC): the API's `to` is inclusive. */
export function endOfDay(day: string): string {
  return new Date(localDay(day, 1).getTime() - 1).toISOString();
}
