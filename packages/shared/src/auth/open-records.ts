import { useEffect } from 'react';
import type { RootState } from '../store';
import { useAppDispatch } from '../store';
import { type OpenBillingRecord, setTemporaryBilling, setTemporaryServer } from './auth-slice';

/**
 * A page that shows one server calls this with its id: the server is "open" (the shell's server
 * layout names it) while the page is, and no longer once the reader leaves it.
 */
export function useOpenServer(serverId: string | undefined): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!serverId) return;
    dispatch(setTemporaryServer(serverId));
    return () => {
      dispatch(setTemporaryServer(null));
    };
  }, [dispatch, serverId]);
}

/** A page that shows one billing record (a subscription) calls this with it, like `useOpenServer`. */
export function useOpenBilling(record: OpenBillingRecord | null): void {
  const dispatch = useAppDispatch();
  const provider = record?.provider;
  const id = record?.id;
  useEffect(() => {
    if (!provider || !id) return;
    dispatch(setTemporaryBilling({ provider, id }));
    return () => {
      dispatch(setTemporaryBilling(null));
    };
  }, [dispatch, provider, id]);
}

/** The open server among the user's servers (null when none is open or it is not one of theirs). */
export function selectOpenServer(state: RootState) {
  const id = state.auth.temporaryServer;
  return id === null ? null : (state.auth.guilds.find((g) => g.id === id) ?? null);
}

/** The billing record a page has open. */
export const selectOpenBilling = (state: RootState): OpenBillingRecord | null => state.auth.temporaryBilling;
