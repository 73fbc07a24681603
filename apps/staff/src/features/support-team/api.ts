/**
 * Support search (`/api/staff/search`) and the cards of a user or a server (`/api/staff/users/:user`,
 * `/api/staff/servers/:server`): DASHBOARD_SUPPORT_SEARCH_READ. Not through the overlay: the page
 * shows loading and failures in place. A card view is written to the staff audit, so it is the
 * dashboard's own fetch (`fromDashboard`). Type-only imports of the contract: no zod at run time.
 */
import type { StaffEndSessionsAnswer, StaffSearchAnswer, StaffServerCard, StaffUserCard } from '@tickety/api-contract';
import { api } from '@tickety/shared';

export type { StaffSearchAnswer, StaffSearchServer, StaffSearchUser, StaffServerCard, StaffTicket, StaffUserCard } from '@tickety/api-contract';

/** The page searches this long after the last key press. */
export const SEARCH_DEBOUNCE_MS = 200;
/** The longest query the API takes (STAFF_SEARCH_MAX_LENGTH). */
export const SEARCH_MAX_LENGTH = 100;

const searchApi = api.enhanceEndpoints({ addTagTypes: ['StaffUserCard'] }).injectEndpoints({
  endpoints: (build) => ({
    staffSearch: build.query<StaffSearchAnswer, string>({
      query: (q) => ({ path: '/api/staff/search', query: { q }, overlay: false }),
      keepUnusedDataFor: 60,
    }),
    staffUserCard: build.query<StaffUserCard, string>({
      query: (user) => ({ path: `/api/staff/users/${encodeURIComponent(user)}`, overlay: false, fromDashboard: true }),
      providesTags: (_result, _error, user) => [{ type: 'StaffUserCard', id: user }],
      keepUnusedDataFor: 30,
    }),
    /** Signs the user out everywhere (DASHBOARD_SUPPORT_SYSTEM_WRITE); the card is read again. */
    endUserSessions: build.mutation<StaffEndSessionsAnswer, string>({
      query: (user) => ({ path: `/api/staff/users/${encodeURIComponent(user)}/sessions/end`, method: 'POST', body: {}, overlay: false }),
      invalidatesTags: (_result, error, user) => (error ? [] : [{ type: 'StaffUserCard', id: user }]),
    }),
    staffServerCard: build.query<StaffServerCard, string>({
      query: (server) => ({ path: `/api/staff/servers/${encodeURIComponent(server)}`, overlay: false, fromDashboard: true }),
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useLazyStaffSearchQuery, useStaffUserCardQuery, useStaffServerCardQuery, useEndUserSessionsMutation } = searchApi;
