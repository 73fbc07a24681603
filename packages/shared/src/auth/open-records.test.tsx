import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../store';
import { authStateFor, signedInMe, testGuild } from '../testing';
import { selectOpenBilling, selectOpenServer, useOpenBilling, useOpenServer } from './open-records';

function ServerPage({ id }: { id: string }) {
  useOpenServer(id);
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
    const s = store();
    const view = render(
      <Provider store={s}>
        <ServerPage id={guild.id} />
      </Provider>,
    );
    expect(selectOpenServer(s.getState())).toMatchObject({ id: guild.id, name: 'Lobby' });
    view.rerender(
      <Provider store={s}>
        <ServerPage id="200000000000000009" />
      </Provider>,
    );
    expect(s.getState().auth.temporaryServer).toBe('200000000000000009');
    expect(selectOpenServer(s.getState()), 'not one of the user servers').toBeNull();
    view.unmount();
    expect(s.getState().auth.temporaryServer).toBeNull();
  });

  it('works the same for a billing record', () => {
    const s = store();
    const view = render(
      <Provider store={s}>
        <SubscriptionPage id="sub_1" />
      </Provider>,
    );
    expect(selectOpenBilling(s.getState())).toEqual({ provider: 'paddle', id: 'sub_1' });
    view.unmount();
    expect(selectOpenBilling(s.getState())).toBeNull();
  });
});
