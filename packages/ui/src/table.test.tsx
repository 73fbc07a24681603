import { cleanup, render, screen, within } from '@testing-library/react';
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
