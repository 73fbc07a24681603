/** The chart's series colours (the legend in the page uses them too), readable on light and dark. */
export const SERIES_COLOURS = { opened: '#10b981', closed: '#6366f1', backlog: '#f59e0b' } as const;
