import { exponentOf, formatMinor } from '../../kit/money';
import type { IntervalUnit } from './types';

/** Minor units (499) as FastSpring's major-unit number (4.99). */
export function major(minor: number, currency: string): number {
  return minor / 10 ** exponentOf(currency);
}

/** `$4.99`, `-$20.00`. */
export function display(minor: number, currency: string): string {
  return minor < 0 ? `-${formatMinor(-minor, currency)}` : formatMinor(minor, currency);
}

/** FastSpring's short date display, `M/D/YY` in UTC (`11/8/19`). */
export function dateDisplay(ms: number): string {
  const date = new Date(ms);
  return `${date.getUTCMonth() + 1}/${date.getUTCDate()}/${String(date.getUTCFullYear() % 100).padStart(2, '0')}`;
}

/** `YYYY-MM-DD` in UTC. */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A time as FastSpring spells it: the ms value, `…Value`, `…InSeconds` and `…Display`. */
export function stamps<K extends string>(key: K, ms: number | null): Record<K | `${K}Value` | `${K}InSeconds` | `${K}Display`, number | string | null> {
  return {
    [key]: ms,
    [`${key}Value`]: ms,
    [`${key}InSeconds`]: ms === null ? null : Math.floor(ms / 1000),
    [`${key}Display`]: ms === null ? null : dateDisplay(ms),
  } as Record<K | `${K}Value` | `${K}InSeconds` | `${K}Display`, number | string | null>;
}

export function intervalLabel(unit: IntervalUnit, length: number): string {
  return length === 1 ? unit : `${length} ${unit}s`;
}
