import { createSelector } from '@reduxjs/toolkit';
import { useEffect } from 'react';
import { api } from '../client/api';
import type { RootState } from '../store';
import { useAppDispatch } from '../store';
import type { Guild, GuildWithAccess, ServerAccess } from '../types';
import { type OpenBillingRecord, setTemporaryBilling, setTemporaryServer } from './auth-slice';

/**
 * `GET /api/guilds/:server`: may the user open this server, and what may they do there (the API
 * decides). The shell's server layout asks it; pages read the cached answer through the selectors below.
 */
export const serverApi = api.injectEndpoints({
  endpoints: (build) => ({
    getServer: build.query<GuildWithAccess, string>({
      query: (server) => ({ path: `/api/guilds/${encodeURIComponent(server)}` }),
    }),
  }),
});

export const { useGetServerQuery } = serverApi;

/**
 * The shell's server layout calls this with the server whose pages it shows: the server is "open"
 * while they are, and no longer once the reader leaves them.
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

/** An open server: one of the user's servers, with what they may do there (null while unknown). */
export type OpenServer = Guild & { access: ServerAccess | null };

/** The cached `GET /api/guilds/:server` answer of the open server (undefined while none). */
function selectOpenServerAnswer(state: RootState): GuildWithAccess | undefined {
  const id = state.auth.temporaryServer;
  return id === null ? undefined : serverApi.endpoints.getServer.select(id)(state).data;
}

/**
 * The open server among the user's servers, with the access its cached answer gives (`via` 'full'
 * or 'roles', per area 'write' / 'read' / null, the granting roles' names; null while unknown). For a
 * staff member's read-only view (`via` 'staff') the server as the API answered it, which need not be
 * one of theirs. Null when none is open or it is not one of theirs (and not a staff view). Memoised.
 */
export const selectOpenServer = createSelector(
  [(state: RootState) => state.auth.temporaryServer, (state: RootState) => state.auth.guilds, selectOpenServerAnswer],
  (id, guilds, answer): OpenServer | null => {
    if (id === null) return null;
    const access = answer?.access ?? null;
    const guild = guilds.find((own) => own.id === id) ?? (access?.via === 'staff' && answer?.id === id ? answer : undefined);
    return guild ? { ...guild, access } : null;
  },
);

/** What the user may do on the open server (null while unknown or when none is open). */
export const selectOpenServerAccess = (state: RootState): ServerAccess | null => selectOpenServerAnswer(state)?.access ?? null;

/** The billing record a page has open. */
export const selectOpenBilling = (state: RootState): OpenBillingRecord | null => state.auth.temporaryBilling;
