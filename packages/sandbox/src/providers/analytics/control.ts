/** One `profitwell('start', …)` the stand-in received (POST /starts). */
export interface AnalyticsStart {
  /** The public token the script was loaded with. */
  token: string;
  /** `user_id` given to start (the dashboard passes the Tickety user id), or null. */
  user_id: string | null;
  /** `user_email` given to start, or null. */
  user_email: string | null;
  /** When it arrived (the stand-in's clock, ISO 8601). */
  at: string;
  /** The page's path (no query) the script ran on, or null. */
  page: string | null;
}

/**
 * Reads and clears one `analyticsSandbox` registration's starts (tests, the demo). Make it with
 * `createAnalyticsSandboxControl()` and pass it as the option `control`.
 */
export interface AnalyticsSandboxControl {
  /** The starts received, oldest first (at most the plugin's `maxStarts`: the oldest are dropped). */
  starts(): AnalyticsStart[];
  /** Forgets every start. */
  reset(): void;
}

interface Internals {
  record(start: AnalyticsStart, max: number): void;
}

const internals = new WeakMap<AnalyticsSandboxControl, Internals>();

export function createAnalyticsSandboxControl(): AnalyticsSandboxControl {
  let list: AnalyticsStart[] = [];
  const control: AnalyticsSandboxControl = {
    starts: () => list.map((s) => ({ ...s })),
    reset: () => {
      list = [];
    },
  };
  internals.set(control, {
    record(start, max) {
      list.push(start);
      if (list.length > max) list.splice(0, list.length - max);
    },
  });
  return control;
}

/** What the plugin reaches through a control. */
export function controlInternals(control: AnalyticsSandboxControl): Internals {
  const found = internals.get(control);
  if (!found) throw new TypeError('analyticsSandbox: control must come from createAnalyticsSandboxControl()');
  return found;
}
