export const DAY = 24 * 60 * 60 * 1000;

/**
 * `ms` moved by `count` calendar months or years in UTC; a day past the end of the target month is
 * clamped to its last day (Jan 31 + 1 month = Feb 28/29), the time of day is kept.
 */
export function addInterval(ms: number, unit: 'month' | 'year', count = 1): number {
  const start = new Date(ms);
  const months = unit === 'year' ? 12 * count : count;
  const total = start.getUTCFullYear() * 12 + start.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(start.getUTCDate(), lastDay), start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds(), start.getUTCMilliseconds());
}
