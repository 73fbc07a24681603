import { type ReactNode, useMemo, useState } from 'react';
import { cx } from './cx';
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
}

function compare(left: string | number, right: string | number): number {
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  return String(left).localeCompare(String(right), undefined, { numeric: true, sensitivity: 'base' });
}

/**
 * A data table: sortable headers (buttons, `aria-sort`), an empty state, and on narrow screens each
 * row stacked as a card with its column labels, so nothing scrolls sideways on a phone.
 */
export function Table<Row>({ caption, showCaption = false, columns, rows, rowKey, empty, initialSort, className }: TableProps<Row>) {
  const text = useUiText();
  const [sort, setSort] = useState<TableSort | undefined>(initialSort);
  const sorted = useMemo(() => {
    const column = sort && columns.find((c) => c.key === sort.key);
    if (!column?.sortValue || !sort) return rows;
    const value = column.sortValue;
    const sign = sort.direction === 'ascending' ? 1 : -1;
    return [...rows].sort((a, b) => sign * compare(value(a), value(b)));
  }, [rows, columns, sort]);

  if (rows.length === 0) return <>{empty}</>;

  const toggle = (key: string) =>
    setSort((current) => ({ key, direction: current?.key === key && current.direction === 'ascending' ? 'descending' : 'ascending' }));

  return (
    <div className={cx('overflow-hidden rounded-xl border border-surface-200 bg-white dark:border-surface-800 dark:bg-surface-900', className)}>
      <table className="w-full text-left text-sm">
        <caption className={showCaption ? 'px-4 pt-4 text-left font-semibold text-surface-900 dark:text-surface-50' : 'sr-only'}>{caption}</caption>
        <thead className="hidden border-b border-surface-200 bg-surface-50 text-xs uppercase tracking-wide text-surface-600 sm:table-header-group dark:border-surface-800 dark:bg-surface-950 dark:text-surface-400">
          <tr>
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
        <tbody className="divide-y divide-surface-200 dark:divide-surface-800">
          {sorted.map((row) => (
            <tr key={rowKey(row)} className="block px-4 py-3 sm:table-row sm:p-0">
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
        </tbody>
      </table>
    </div>
  );
}
