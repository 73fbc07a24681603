import { type FocusEvent, startTransition, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';

/** Rows rendered beyond each edge of the screen, so a scroll or a Tab finds its next row already there. */
const OVERSCAN = 4;

export interface RowWindow {
  /** The rendered rows: `start` (inclusive) to `end` (exclusive), in the table's order. */
  start: number;
  end: number;
  /** The height (px) of the rows left out above and below the rendered ones. */
  before: number;
  after: number;
  bodyRef: (body: HTMLTableSectionElement | null) => void;
  onFocus: (event: FocusEvent<HTMLTableSectionElement>) => void;
  onBlur: (event: FocusEvent<HTMLTableSectionElement>) => void;
}

/**
 * Which rows of a long table are on screen (the page's scroll, whichever element scrolls it): each
 * rendered row's height is measured (`data-row-key` on its `<tr>`), the others count as `estimate`.
 * The row holding focus and its neighbours stay rendered, so focus is never lost and Tab or
 * Shift+Tab reaches the next row. `enabled` false: every row, nothing measured.
 */
export function useRowWindow(keys: readonly string[], enabled: boolean, estimate: number): RowWindow {
  const body = useRef<HTMLTableSectionElement | null>(null);
  const heights = useRef(new Map<string, number>());
  const [measured, setMeasured] = useState(0);
  const [range, setRange] = useState(() => ({ start: 0, end: Math.min(keys.length, Math.ceil(900 / estimate) + OVERSCAN) }));
  const [focused, setFocused] = useState<string | null>(null);

  // `measured` counts height changes: the offsets follow them.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  const offsets = useMemo(() => {
    const out = [0];
    for (const key of keys) out.push((out.at(-1) ?? 0) + (heights.current.get(key) ?? estimate));
    return out;
  }, [keys, estimate, measured]);

  const update = useCallback(() => {
    const section = body.current;
    if (!enabled || !section) return;
    let changed = false;
    for (const row of section.querySelectorAll<HTMLElement>(':scope > tr[data-row-key]')) {
      const height = row.getBoundingClientRect().height;
      const key = row.dataset.rowKey ?? '';
      // A row with no box (not laid out yet, or a test's DOM) keeps its estimate.
      if (height > 0 && Math.abs((heights.current.get(key) ?? 0) - height) > 0.5) {
        heights.current.set(key, height);
        changed = true;
      }
    }
    // Which rows are rendered follows a scroll in the background (a transition): a click or a key
    // press right after a scroll never waits for the rows to be rendered again.
    if (changed) {
      startTransition(() => setMeasured((count) => count + 1));
      return;
    }
    const top = section.getBoundingClientRect().top;
    const screen = window.innerHeight || document.documentElement.clientHeight;
    let first = 0;
    while (first < keys.length && top + (offsets[first + 1] ?? 0) <= 0) first++;
    let last = first;
    while (last < keys.length && top + (offsets[last] ?? 0) < screen) last++;
    const start = Math.max(0, first - OVERSCAN);
    const end = Math.min(keys.length, Math.max(last, first + 1) + OVERSCAN);
    startTransition(() => setRange((current) => (current.start === start && current.end === end ? current : { start, end })));
  }, [enabled, keys.length, offsets]);

  useLayoutEffect(update);
  useLayoutEffect(() => {
    if (!enabled) return;
    // Capture: a scroll of any element (the page's own scroller) moves the table too.
    const options = { capture: true, passive: true } as const;
    window.addEventListener('scroll', update, options);
    window.addEventListener('resize', update, options);
    return () => {
      window.removeEventListener('scroll', update, options);
      window.removeEventListener('resize', update, options);
    };
  }, [enabled, update]);

  const bodyRef = useCallback((section: HTMLTableSectionElement | null) => {
    body.current = section;
  }, []);
  const onFocus = useCallback((event: FocusEvent<HTMLTableSectionElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>('tr[data-row-key]');
    setFocused(row?.dataset.rowKey ?? null);
  }, []);
  const onBlur = useCallback((event: FocusEvent<HTMLTableSectionElement>) => {
    const next = event.relatedTarget as Node | null;
    if (!next || !event.currentTarget.contains(next)) setFocused(null);
  }, []);

  if (!enabled) return { start: 0, end: keys.length, before: 0, after: 0, bodyRef, onFocus, onBlur };
  let { start, end } = range;
  end = Math.min(end, keys.length);
  start = Math.min(start, end);
  const held = focused === null ? -1 : keys.indexOf(focused);
  if (held >= 0) {
    start = Math.min(start, Math.max(0, held - 1));
    end = Math.max(end, Math.min(keys.length, held + 2));
  }
  const total = offsets[keys.length] ?? 0;
  return { start, end, before: offsets[start] ?? 0, after: total - (offsets[end] ?? total), bodyRef, onFocus, onBlur };
}
