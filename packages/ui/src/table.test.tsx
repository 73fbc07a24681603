import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Table, type TableColumn } from './table';
import { UiTextProvider } from './ui-text';

interface Member {
  id: string;
  name: string;
  tickets: number;
}
const rows: Member[] = [
  { id: '1', name: 'Ben', tickets: 12 },
  { id: '2', name: 'ava', tickets: 3 },
  { id: '3', name: 'Cleo', tickets: 120 },
];
const columns: TableColumn<Member>[] = [
  { key: 'name', header: 'Name', label: 'Name', cell: (m) => m.name, sortValue: (m) => m.name },
  { key: 'tickets', header: 'Tickets', label: 'Tickets', cell: (m) => String(m.tickets), sortValue: (m) => m.tickets, align: 'end' },
  { key: 'id', header: 'Id', label: 'Id', cell: (m) => m.id },
];
const names = () => within(screen.getAllByRole('rowgroup')[1]!).getAllByRole('row').map((r) => within(r).getAllByRole('cell')[0]!.textContent);

afterEach(cleanup);

describe('Table', () => {
  it('sorts by a column when its header is pressed, and the other way on a second press', async () => {
    const user = userEvent.setup();
    render(<Table caption="Team" columns={columns} rows={rows} rowKey={(m) => m.id} empty={<p>Nobody yet</p>} />);
    expect(screen.getByRole('table', { name: 'Team' })).toBeInTheDocument();
    expect(names()).toEqual(['Ben', 'ava', 'Cleo']);
    const tickets = screen.getByRole('button', { name: /Sort by Tickets/ });
    await user.click(tickets);
    expect(names()).toEqual(['ava', 'Ben', 'Cleo']); // 3, 12, 120: numbers, not text
    expect(screen.getByRole('columnheader', { name: /Tickets/ })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(tickets);
    expect(screen.getByRole('columnheader', { name: /Tickets/ })).toHaveAttribute('aria-sort', 'descending');
    expect(names()).toEqual(['Cleo', 'Ben', 'ava']);
    await user.click(screen.getByRole('button', { name: /Sort by Name/ }));
    expect(names()).toEqual(['ava', 'Ben', 'Cleo']); // case-insensitive
    expect(screen.getByRole('columnheader', { name: 'Id' })).not.toHaveAttribute('aria-sort');
  });

  it('shows its empty state without rows', () => {
    render(<Table caption="Team" columns={columns} rows={[]} rowKey={(m) => m.id} empty={<p>Nobody yet</p>} />);
    expect(screen.getByText('Nobody yet')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("speaks the reader's language through the UI text provider", () => {
    render(
      <UiTextProvider value={{ loading: 'Lädt…', sortBy: (c) => `Nach ${c} sortieren`, sortedAscending: 'aufsteigend', sortedDescending: 'absteigend' }}>
        <Table caption="Team" columns={columns} rows={rows} rowKey={(m) => m.id} empty={null} initialSort={{ key: 'name', direction: 'descending' }} />
      </UiTextProvider>,
    );
    expect(screen.getByRole('button', { name: /Nach Name sortieren, absteigend/ })).toBeInTheDocument();
    expect(names()).toEqual(['Cleo', 'Ben', 'ava']);
  });
});

describe('Table with windowFrom (a long list)', () => {
  const many: Member[] = Array.from({ length: 100 }, (_, index) => ({ id: String(index + 1), name: `Member ${index + 1}`, tickets: index }));
  const withButton: TableColumn<Member>[] = [
    ...columns,
    { key: 'open', header: 'Open', label: 'Open', cell: (m) => <button type="button">Open {m.name}</button> },
  ];
  const bodyRows = () => within(screen.getAllByRole('rowgroup')[1]!).getAllByRole('row');
  /** Puts the table's body `top` px from the top of the screen (negative: scrolled past) and scrolls. */
  const scrollBodyTo = (top: number) => {
    const body = screen.getAllByRole('rowgroup')[1]!;
    body.getBoundingClientRect = () => ({ top, bottom: top + 9600, left: 0, right: 400, width: 400, height: 9600, x: 0, y: top, toJSON: () => ({}) });
    act(() => {
      window.dispatchEvent(new Event('scroll'));
    });
  };
  afterEach(() => {
    window.innerHeight = 768;
  });

  it('renders the rows on screen only, and says how many rows there are and where each is', () => {
    window.innerHeight = 768;
    render(<Table caption="Team" columns={columns} rows={many} rowKey={(m) => m.id} empty={null} windowFrom={20} />);
    const table = screen.getByRole('table', { name: 'Team' });
    expect(table).toHaveAttribute('aria-rowcount', '101');
    const shown = bodyRows();
    // 768 px of 96 px rows (the estimate), and four more below.
    expect(shown.length).toBe(12);
    expect(shown[0]).toHaveAttribute('aria-rowindex', '2');
    expect(names().slice(0, 2)).toEqual(['Member 1', 'Member 2']);
    expect(screen.queryByText('Member 100')).toBeNull();
  });

  it('renders the rows scrolled to, each with its position in the whole table', () => {
    window.innerHeight = 768;
    render(<Table caption="Team" columns={columns} rows={many} rowKey={(m) => m.id} empty={null} windowFrom={20} />);
    scrollBodyTo(-96 * 50);
    const shown = bodyRows();
    // Rows 51 to 58 are on screen; four more each side.
    expect(names()[0]).toBe('Member 47');
    expect(shown[0]).toHaveAttribute('aria-rowindex', '48');
    expect(names()).toContain('Member 58');
    expect(screen.queryByText('Member 1')).toBeNull();
    scrollBodyTo(-96 * 100 + 300);
    expect(names().at(-1)).toBe('Member 100');
    expect(bodyRows().at(-1)).toHaveAttribute('aria-rowindex', '101');
  });

  it('keeps the row holding focus (and the next one, for Tab) when it is scrolled away', async () => {
    const user = userEvent.setup();
    window.innerHeight = 768;
    render(<Table caption="Team" columns={withButton} rows={many} rowKey={(m) => m.id} empty={null} windowFrom={20} />);
    scrollBodyTo(-96 * 10);
    const button = screen.getByRole('button', { name: 'Open Member 12' });
    button.focus();
    scrollBodyTo(-96 * 60);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open Member 12' }));
    expect(screen.getByRole('button', { name: 'Open Member 13' })).toBeInTheDocument();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open Member 13' }));
    // Focus leaves the table: the rows far from the screen go.
    act(() => (document.activeElement as HTMLElement).blur());
    expect(screen.queryByRole('button', { name: 'Open Member 12' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Open Member 61' })).toBeInTheDocument();
  });

  it('renders every row, without positions, below windowFrom', () => {
    render(<Table caption="Team" columns={columns} rows={many.slice(0, 19)} rowKey={(m) => m.id} empty={null} windowFrom={20} />);
    expect(bodyRows()).toHaveLength(19);
    expect(screen.getByRole('table')).not.toHaveAttribute('aria-rowcount');
    expect(bodyRows()[0]).not.toHaveAttribute('aria-rowindex');
  });
});
