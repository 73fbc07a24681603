import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BillingSubscription, ServerPremiumAnswer } from '@tickety/api-contract';
import { useOpenServer } from '@tickety/shared';
import { mockApi, renderPage, resetShared, TEST_PLANS, testSubscription, useServedServer } from '@tickety/shared/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ARCADE, avaMe } from '../../test/fixtures';
import ServerPremium from './premium';

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));

const BASE = `/api/guilds/${ARCADE.id}`;
const subscription = (slots: BillingSubscription['slots']): BillingSubscription => testSubscription({ slots, actions: ['cancel'] });
const answer = (over: Partial<ServerPremiumAnswer> = {}): ServerPremiumAnswer => ({ premium: false, coveredBy: null, mine: [], cooldownHours: 24, ...over });

function OpenedByLayout() {
  useOpenServer(ARCADE.id);
  return <ServerPremium />;
}
/** What the shell's server layout keeps for a staff member's read-only view: the answered server, staff access. */
const STAFF_ACCESS = { via: 'staff' as const, areas: { panels: 'read' as const, tickets: 'read' as const, statistics: 'read' as const, logs: 'read' as const, configs: 'read' as const, premium: 'read' as const }, grantedBy: [] };
const STAFF_GUILD = { ...ARCADE, owner: false, canManage: false, permissions: '0' };
function StaffLayout() {
  useServedServer(ARCADE.id, STAFF_ACCESS, STAFF_GUILD);
  return <ServerPremium />;
}
function show() {
  const page = renderPage(<OpenedByLayout />, { url: `/dashboard/${ARCADE.id}/premium`, path: '/dashboard/:server/premium', me: avaMe() });
  store = page.store;
  return page;
}

describe('server premium page', () => {
  it('a server without premium and a user without slots: the state, the way to buy, what premium unlocks', async () => {
    const api = mockApi({ [`${BASE}/premium`]: answer(), '/api/plans': TEST_PLANS });
    show();
    expect(await screen.findByText('No premium slot covers this server: it has the free plan\'s limits.')).toBeInTheDocument();
    expect(screen.getByText('Not active')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'You have no premium slots' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the premium plans' })).toHaveAttribute('href', '/premium-purchase');
    expect(await screen.findByRole('heading', { name: 'What Premium unlocks on this server' })).toBeInTheDocument();
    expect(screen.getByText('50 ticket panels and multi-panels')).toBeInTheDocument();
    expect(api.unexpected).toEqual([]);
  });

  it('puts a free slot on the server at once; the page shows the answer', async () => {
    const after = answer({ premium: true, coveredBy: { provider: 'paddle', id: 'sub_01', planName: 'Premium', mine: true, slot: 1 }, mine: [subscription([{ slot: 1, guildId: ARCADE.id, guildName: "Ava's Arcade", assignedAt: '2026-11-26T00:00:00.000Z', movableAt: '2026-11-27T00:00:00.000Z' }])] });
    const api = mockApi({
      [`GET ${BASE}/premium`]: answer({ mine: [subscription([{ slot: 1, guildId: null, guildName: null, assignedAt: null, movableAt: null }])] }),
      [`PUT ${BASE}/premium`]: after,
      [`${BASE}/config`]: { version: 0, config: {}, savedAt: null, savedBy: null, premium: true, panelLimit: 50 },
      '/api/plans': TEST_PLANS,
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: "Use on Ava's Arcade" }));
    expect(await screen.findByText('Your Premium subscription through Paddle covers it (slot 1).')).toBeInTheDocument();
    const put = api.fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    expect(JSON.parse(String(put[1]!.body))).toEqual({ provider: 'paddle', subscriptionId: 'sub_01', slot: 1 });
    expect(screen.getByText('On this server')).toBeInTheDocument();
  });

  it('moving a slot from another server asks first; a slot in its cooldown cannot move, and says when it can', async () => {
    const slots = [
      { slot: 1, guildId: '1100000000000000002', guildName: 'Pixel Pals', assignedAt: '2026-11-20T00:00:00.000Z', movableAt: null },
      { slot: 2, guildId: '1100000000000000003', guildName: 'Study Hall', assignedAt: '2026-11-26T00:00:00.000Z', movableAt: '2099-01-01T00:00:00.000Z' },
    ];
    const api = mockApi({
      [`GET ${BASE}/premium`]: answer({ mine: [subscription(slots)] }),
      [`PUT ${BASE}/premium`]: () => new Response(JSON.stringify({ code: 1023, message: 'This premium slot moved recently: it can move again at 2099-01-01T00:00:00.000Z.', isAuthenticated: true }), { status: 409, headers: { 'content-type': 'application/json' } }),
      '/api/plans': TEST_PLANS,
    });
    show();
    const buttons = await screen.findAllByRole('button', { name: "Move to Ava's Arcade" });
    expect(buttons[1]).toBeDisabled();
    expect(screen.getByText(/It can move at/)).toBeInTheDocument();
    await userEvent.click(buttons[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Move premium here?' });
    expect(dialog).toHaveTextContent('Pixel Pals loses premium now');
    await userEvent.click(within(dialog).getByRole('button', { name: "Move to Ava's Arcade" }));
    expect(await screen.findByText('Premium could not be put on this server')).toBeInTheDocument();
    expect(screen.getByText(/can move again at 2099/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.unexpected).toEqual([]);
  });

  it("a staff member's read-only view (via staff, the server not in their list): named from the layout's answer, no slots offered, the staff note", async () => {
    const api = mockApi({
      // The API answers the staff member's own slots: the page does not offer them for this server.
      [`GET ${BASE}/premium`]: answer({ premium: true, coveredBy: { provider: 'paddle', id: null, planName: 'Premium', mine: false, slot: 1 }, mine: [subscription([{ slot: 1, guildId: null, guildName: null, assignedAt: null, movableAt: null }])] }),
      '/api/plans': TEST_PLANS,
    });
    const page = renderPage(<StaffLayout />, { url: `/dashboard/${ARCADE.id}/premium`, path: '/dashboard/:server/premium', me: avaMe({ guilds: [] }) });
    store = page.store;
    expect(await screen.findByText(/^You are viewing as staff: read-only\./)).toBeInTheDocument();
    // The server is named from the layout's answer, not from the staff member's own list.
    expect(screen.getByText("Premium for Ava's Arcade: whether it has it, which subscription covers it, and putting one of your premium slots here.")).toBeInTheDocument();
    expect(screen.getByText("Another member's Premium subscription covers it.")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: "Use on Ava's Arcade" })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Your premium slots' })).toBeNull();
    expect(api.fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
  });

  it('a failed read says so in place, with Try again', async () => {
    let fail = true;
    mockApi({
      [`${BASE}/premium`]: () => (fail ? new Response(JSON.stringify({ code: 1500, message: 'Something went wrong on our side. Try again shortly.', isAuthenticated: true }), { status: 500, headers: { 'content-type': 'application/json' } }) : new Response(JSON.stringify(answer()), { headers: { 'content-type': 'application/json' } })),
      '/api/plans': TEST_PLANS,
    });
    show();
    expect(await screen.findByText("This server's premium could not be loaded")).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Not active')).toBeInTheDocument();
  });
});
