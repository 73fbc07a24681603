import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { api } from './client/api';
import { overlayStore } from './client/overlay-store';
import { useAppSelector } from './store';
import { mockApi, renderPage, resetShared, signedInMe } from './testing';

const plansApi = api.injectEndpoints({
  endpoints: (b) => ({ testPlans: b.query<Array<{ id: string }>, void>({ query: () => '/api/plans' }) }),
});

function Plans() {
  const { data } = plansApi.useTestPlansQuery();
  const user = useAppSelector((s) => s.auth.user);
  return (
    <p>
      {user?.globalName ?? 'nobody'}: {data?.map((p) => p.id).join(',') ?? 'loading'}
    </p>
  );
}

let store: ReturnType<typeof renderPage>['store'] | undefined;
afterEach(() => resetShared(store));

describe('renderPage + mockApi', () => {
  it('renders a page with the signed-in state and answers its API calls from the table', async () => {
    const { calls, unexpected } = mockApi({ 'GET /api/plans': [{ id: 'free' }, { id: 'premium' }] });
    ({ store } = renderPage(<Plans />, { me: signedInMe() }));
    expect(await screen.findByText('Ava: free,premium')).toBeInTheDocument();
    expect(calls('/api/plans')).toHaveLength(1);
    expect(unexpected).toEqual([]);
  });

  it('records calls without an answer and lets the overlay show the failure', async () => {
    const { unexpected } = mockApi({});
    ({ store } = renderPage(<Plans />));
    await waitFor(() => expect(overlayStore.getSnapshot().error?.title).toBe('Request Failed'));
    expect(unexpected).toEqual(['GET /api/plans']);
    expect(screen.getByText('nobody: loading')).toBeInTheDocument();
  });
});
