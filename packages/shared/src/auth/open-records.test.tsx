import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../store';
import { authStateFor, signedInMe, testGuild, useServedServer } from '../testing';
import type { ServerAccess } from '../types';
import { selectOpenBilling, selectOpenServer, selectOpenServerAccess, useOpenBilling, useOpenServer } from './open-records';

function ServerPage({ id }: { id: string }) {
  useOpenServer(id);
  return null;
}
/** The shell's server layout: the server's cached answer (with `access`), and the server open. */
function ServerFrame({ id, access }: { id: string; access: ServerAccess }) {
  useServedServer(id, access);
  return null;
}
/** A server not in the user's list, as the API answered it to a staff member. */
const ELSEWHERE = testGuild({ id: '200000000000000002', name: 'Elsewhere', canManage: false, owner: false });
function StaffFrame({ access }: { access: ServerAccess }) {
  useServedServer(ELSEWHERE.id, access, ELSEWHERE);
  return null;
}
function SubscriptionPage({ id }: { id: string }) {
  useOpenBilling({ provider: 'paddle', id });
  return null;
}

describe('the open server and billing record', () => {
  const guild = testGuild({ id: '200000000000000001', name: 'Lobby' });
  const store = () => makeStore({ auth: authStateFor(signedInMe({ guilds: [guild] })) });

  it('is set by the page that shows it, follows it to another one, and is cleared when the reader leaves', () => {
    const testStore = store();
    const view = render(
      <Provider store={testStore}>
        <ServerPage id={guild.id} />
      </Provider>,
    );
    expect(selectOpenServer(testStore.getState())).toMatchObject({ id: guild.id, name: 'Lobby' });
    view.rerender(
      <Provider store={testStore}>
        <ServerPage id="200000000000000009" />
      </Provider>,
    );
    expect(testStore.getState().auth.temporaryServer).toBe('200000000000000009');
    expect(selectOpenServer(testStore.getState()), 'not one of the user servers').toBeNull();
    view.unmount();
    expect(testStore.getState().auth.temporaryServer).toBeNull();
  });

  it('gives the open server the access its cached answer holds (what pages mirror), and forgets it with the server', () => {
    const testStore = store();
    const read: ServerAccess = { via: 'roles', areas: { panels: 'read', tickets: null, statistics: null, logs: 'read', configs: null, premium: null }, grantedBy: ['Dashboard Readers'] };
    const view = render(
      <Provider store={testStore}>
        <ServerFrame id={guild.id} access={read} />
      </Provider>,
    );
    const open = selectOpenServer(testStore.getState());
    expect(open).toMatchObject({ id: guild.id, name: 'Lobby', access: read });
    expect(selectOpenServer(testStore.getState()), 'memoised').toBe(open);
    expect(selectOpenServerAccess(testStore.getState())).toEqual(read);
    // A refetch with other access replaces it.
    const write: ServerAccess = { ...read, areas: { ...read.areas, panels: 'write' } };
    view.rerender(
      <Provider store={testStore}>
        <ServerFrame id={guild.id} access={write} />
      </Provider>,
    );
    expect(selectOpenServer(testStore.getState())?.access?.areas.panels).toBe('write');
    view.unmount();
    expect(selectOpenServer(testStore.getState())).toBeNull();
    expect(selectOpenServerAccess(testStore.getState())).toBeNull();
    expect(testStore.getState().auth.temporaryServer).toBeNull();
  });

  it("a staff member's read-only view (via staff): the server as answered, though not in their list; any other access never takes it", () => {
    const testStore = store();
    const staff: ServerAccess = { via: 'staff', areas: { panels: 'read', tickets: 'read', statistics: 'read', logs: 'read', configs: 'read', premium: 'read' }, grantedBy: [] };
    const view = render(
      <Provider store={testStore}>
        <StaffFrame access={staff} />
      </Provider>,
    );
    expect(selectOpenServer(testStore.getState())).toMatchObject({ id: ELSEWHERE.id, name: 'Elsewhere', access: staff });
    const roles: ServerAccess = { via: 'roles', areas: { ...staff.areas, configs: null }, grantedBy: ['Readers'] };
    view.rerender(
      <Provider store={testStore}>
        <StaffFrame access={roles} />
      </Provider>,
    );
    expect(selectOpenServer(testStore.getState()), 'not theirs, not a staff view').toBeNull();
    view.unmount();
    expect(selectOpenServer(testStore.getState())).toBeNull();
  });

  it('a page that opens a server without access: the record says null (unknown), never made up', () => {
    const testStore = store();
    render(
      <Provider store={testStore}>
        <ServerPage id={guild.id} />
      </Provider>,
    );
    expect(selectOpenServer(testStore.getState())?.access).toBeNull();
  });

  it('works the same for a billing record', () => {
    const testStore = store();
    const view = render(
      <Provider store={testStore}>
        <SubscriptionPage id="sub_1" />
      </Provider>,
    );
    expect(selectOpenBilling(testStore.getState())).toEqual({ provider: 'paddle', id: 'sub_1' });
    view.unmount();
    expect(selectOpenBilling(testStore.getState())).toBeNull();
  });
});
