import { useEffect, useState } from 'react';

/** The current time, updated every `everyMs` while mounted and `enabled` (for "x minutes ago" labels and countdowns). */
export function useNow(everyMs = 1_000, enabled = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!enabled) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, enabled]);
  return now;
}
