import { type ReactNode, useMemo, useRef, useState } from 'react';
import { cx } from './cx';
import { useRowWindow } from './row-window';
import { useUiText } from './ui-text';

/** One column: its header, how a row shows in it, and (optionally) how rows sort by it. */
export interface TableColumn<Row> {
  key: string;
  header: ReactNode;
  /** The header as plain text (the sort button's accessible name, the label of a stacked row). */
  label: string;
  cell: (row: Row) => ReactNode;
  /** Rows sort by this value when the header is pressed (absent: the column does not sort). */
  sortValue?: (row: Row) => string | number;
  align?: 'start' | 'end';
  /** This column names the row (`<th scope="row">`): the first column, usually. */
  rowHeader?: boolean;
  className?: string;
}

export type SortDirection = 'ascending' | 'descending';
export interface TableSort {
  key: string;
  direction: SortDirection;
}

export interface TableProps<Row> {
  /** The table's name for assistive technology (shown when `showCaption`). */
  caption: string;
  showCaption?: boolean;
  columns: ReadonlyArray<TableColumn<Row>>;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** What the table shows when it has no rows (an `EmptyState`). */
  empty: ReactNode;
  /** The order before the reader picks one. */
  initialSort?: TableSort;
  className?: string;
  /**
   * From this many rows on, only the rows on screen (and a few around them) are rendered, the others
   * kept as empty space of their height: a long list renders and updates in a few rows' time. The
   * table then gives its row count and each row its position (`aria-rowcount`, `aria-rowindex`), and
   * the row holding focus stays rendered. Absent: every row is rendered.
   */
  windowFrom?: number;
  /** A row's height (px) before it has been on screen, for the rows left out (default 96). */
  rowHeightEstimate?: number;
}

function compare(left: string | number, right: string | number): number {
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  return String(left).localeCompare(String(right), undefined, { numeric: true, sensitivity: 'base' });
}

/**
 * A data table: sortable headers (buttons, `aria-sort`), an empty state, and on narrow screens each
 * row stacked as a card with its column labels, so nothing scrolls sideways on a phone.
 */
export function Table<Row>({ caption, showCaption = false, columns, rows, rowKey, empty, initialSort, className, windowFrom, rowHeightEstimate = 96 }: TableProps<Row>) {
  const text = useUiText();
  const [sort, setSort] = useState<TableSort | undefined>(initialSort);
  const sorted = useMemo(() => {
    const column = sort && columns.find((c) => c.key === sort.key);
    if (!column?.sortValue || !sort) return rows;
    const value = column.sortValue;
    const sign = sort.direction === 'ascending' ? 1 : -1;
    return [...rows].sort((a, b) => sign * compare(value(a), value(b)));
  }, [rows, columns, sort]);
  // The keys follow the rows (a caller's `rowKey` is often a new function each render).
  const keyOf = useRef(rowKey);
  keyOf.current = rowKey;
  const keys = useMemo(() => sorted.map((row) => keyOf.current(row)), [sorted]);
  const windowed = windowFrom !== undefined && rows.length >= windowFrom;
  const shown = useRowWindow(keys, windowed, rowHeightEstimate);

  if (rows.length === 0) return <>{empty}</>;

  const toggle = (key: string) =>
    setSort((current) => ({ key, direction: current?.key === key && current.direction === 'ascending' ? 'descending' : 'ascending' }));

  return (
    <div className={cx('overflow-hidden rounded-xl border border-surface-200 bg-white dark:border-surface-800 dark:bg-surface-900', className)}>
      <table className="w-full text-left text-sm" aria-rowcount={windowed ? rows.length + 1 : undefined}>
        <caption className={showCaption ? 'px-4 pt-4 text-left font-semibold text-surface-900 dark:text-surface-50' : 'sr-only'}>{caption}</caption>
        <thead className="hidden border-b border-surface-200 bg-surface-50 text-xs uppercase tracking-wide text-surface-600 sm:table-header-group dark:border-surface-800 dark:bg-surface-950 dark:text-surface-400">
          <tr aria-rowindex={windowed ? 1 : undefined}>
            {columns.map((column) => {
              const active = sort?.key === column.key ? sort.direction : undefined;
              return (
                <th key={column.key} scope="col" aria-sort={column.sortValue ? (active ?? 'none') : undefined} className={cx('px-4 py-3 font-semibold', column.align === 'end' && 'text-right')}>
                  {column.sortValue ? (
                    <button
                      type="button"
                      onClick={() => toggle(column.key)}
                      className="inline-flex items-center gap-1 rounded uppercase tracking-wide hover:text-surface-900 focus-visible:outline-2 focus-visible:outline-primary-600 dark:hover:text-surface-50"
                    >
                      {column.header}
                      <span className="sr-only">
                        {`, ${text.sortBy(column.label)}`}
                        {active ? `, ${active === 'ascending' ? text.sortedAscending : text.sortedDescending}` : ''}
                      </span>
                      <span aria-hidden="true">{active === 'ascending' ? '▲' : active === 'descending' ? '▼' : '↕'}</span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody ref={shown.bodyRef} onFocus={windowed ? shown.onFocus : undefined} onBlur={windowed ? shown.onBlur : undefined} className="divide-y divide-surface-200 dark:divide-surface-800">
          {shown.before > 0 ? <Spacer height={shown.before} span={columns.length} /> : null}
          {sorted.slice(shown.start, shown.end).map((row, offset) => (
            <tr
              key={keys[shown.start + offset]}
              data-row-key={windowed ? keys[shown.start + offset] : undefined}
              aria-rowindex={windowed ? shown.start + offset + 2 : undefined}
              className="block px-4 py-3 sm:table-row sm:p-0"
            >
              {columns.map((column) => {
                // On a phone each cell shows its column's label before it (from data-label), the row a card.
                const cellClass = cx(
                  'flex flex-col items-start gap-0.5 py-1.5 text-left font-normal align-top before:text-xs before:font-medium before:tracking-wide before:text-surface-600 before:uppercase before:content-[attr(data-label)] sm:table-cell sm:px-4 sm:py-3 sm:before:content-none dark:before:text-surface-400',
                  column.align === 'end' && 'sm:text-right',
                  column.className,
                );
                return column.rowHeader ? (
                  <th key={column.key} scope="row" data-label={column.label} className={cellClass}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={column.key} data-label={column.label} className={cellClass}>
                    {column.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
          {shown.after > 0 ? <Spacer height={shown.after} span={columns.length} /> : null}
        </tbody>
      </table>
    </div>
  );
}

/** The room of the rows not rendered (hidden from assistive technology: the rows carry their positions). */
function Spacer({ height, span }: { height: number; span: number }) {
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: an empty spacer row: nothing in it can take focus
    <tr aria-hidden="true" className="block sm:table-row" style={{ height }}>
      <td colSpan={span} className="block p-0 sm:table-cell" />
    </tr>
  );
}
