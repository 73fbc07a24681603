import type { Clock } from '../../src/lib/clock';

/** Where every test clock starts: a fixed instant, so stored timestamps are predictable. */
export const START = Date.UTC(2026, 2, 2, 10, 0, 0);

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A clock tests move by hand (the API and the sandbox share it). */
export interface TestClock extends Clock {
  advance(ms: number): number;
  set(ms: number): void;
  readonly now: number;
}

export function testClock(start = START): TestClock {
  let now = start;
  const clock = (() => now) as TestClock;
  clock.advance = (ms: number) => {
    now += ms;
    return now;
  };
  clock.set = (ms: number) => {
    now = ms;
  };
  Object.defineProperty(clock, 'now', { get: () => now });
  return clock;
}
