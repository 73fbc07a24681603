import { createSelector } from '@reduxjs/toolkit';
import { useEffect } from 'react';
import type { RootState } from '../store';
import { useAppDispatch } from '../store';
import type { Guild, ServerAccess } from '../types';
import { type OpenBillingRecord, setTemporaryBilling, setTemporaryServer } from './auth-slice';

/**
 * A page that shows one server calls this with its id: the server is "open" (the shell's server
 * layout names it) while the page is, and no longer once the reader leaves it. The shell's server
 * layout passes the access the API answered (`GET /api/guilds/:server`), so pages can mirror it, and
 * the server as answered (`guild`: kept for a staff member's read-only view, `access.via` 'staff',
 * whose server is not in their own list).
 */
export function useOpenServer(serverId: string | undefined, access?: ServerAccess | null, guild?: Guild | null): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!serverId) return;
    dispatch(setTemporaryServer(access === undefined ? serverId : { id: serverId, access, guild: guild ?? null }));
    return () => {
      dispatch(setTemporaryServer(null));
    };
  }, [dispatch, serverId, access, guild]);
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

/**
 * The open server among the user's servers, with the access the shell's server layout kept for it
 * (`access`: `via` 'full' or 'roles', per area 'write' / 'read' / null, the granting roles' names;
 * null while unknown). For a staff member's read-only view (`via` 'staff') the server as the API
 * answered it, which need not be one of theirs. Null when none is open or it is not one of theirs
 * (and not a staff view). Memoised.
 */
export const selectOpenServer = createSelector(
  [
    (state: RootState) => state.auth.temporaryServer,
    (state: RootState) => state.auth.temporaryServerAccess,
    (state: RootState) => state.auth.guilds,
    (state: RootState) => state.auth.temporaryServerGuild,
  ],
  (id, access, guilds, answered): OpenServer | null => {
    if (id === null) return null;
    const guild = guilds.find((g) => g.id === id) ?? (access?.via === 'staff' && answered?.id === id ? answered : undefined);
    return guild ? { ...guild, access } : null;
  },
);

/** What the user may do on the open server (null while unknown or when none is open). */
export const selectOpenServerAccess = (state: RootState): ServerAccess | null => (state.auth.temporaryServer === null ? null : state.auth.temporaryServerAccess);

/** The billing record a page has open. */
export const selectOpenBilling = (state: RootState): OpenBillingRecord | null => state.auth.temporaryBilling;
