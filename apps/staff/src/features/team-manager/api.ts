/**
 * The team manager's calls (`/api/staff/team`, `/api/staff/audit`): the staff members, a Discord
 * user looked up before adding them, setting a member's flags, removing one, and the staff audit a
 * page at a time. Not through the overlay: the page shows loading and failures in place. A change
 * reads the team and the audit again. Type-only imports of the contract: no zod at run time.
 */
import type { StaffAuditAnswer, StaffLookupAnswer, StaffPermission, StaffTeamAnswer, StaffTeamPutAnswer } from '@tickety/api-contract';
import { api } from '@tickety/shared';

export type { StaffAuditEntry, StaffGrant, StaffLookupAnswer, StaffTeamMember } from '@tickety/api-contract';

/** The audit entries the page asks for at a time. */
const AUDIT_PAGE = 25;

export interface AuditFilters {
  /** A staff member's id. */
  staff?: string;
  /** An action, or a family (`team`). */
  action?: string;
  /** Text the target contains. */
  target?: string;
}

const teamApi = api.enhanceEndpoints({ addTagTypes: ['StaffTeam', 'StaffAudit'] }).injectEndpoints({
  endpoints: (build) => ({
    staffTeam: build.query<StaffTeamAnswer, void>({
      query: () => ({ path: '/api/staff/team', overlay: false }),
      providesTags: ['StaffTeam'],
      keepUnusedDataFor: 30,
    }),
    /** Who a Discord id is (SPECIAL_TEAM_MANAGER_WRITE): 404 when Discord knows no such user. */
    staffLookup: build.query<StaffLookupAnswer, string>({
      query: (user) => ({ path: `/api/staff/team/lookup/${encodeURIComponent(user)}`, overlay: false }),
      keepUnusedDataFor: 0,
    }),
    /** Adds a member, or sets a member's flags. */
    setStaffMember: build.mutation<StaffTeamPutAnswer, { user: string; permissions: StaffPermission[] }>({
      query: ({ user, permissions }) => ({ path: `/api/staff/team/${encodeURIComponent(user)}`, method: 'PUT', body: { permissions }, overlay: false }),
      invalidatesTags: ['StaffTeam', 'StaffAudit'],
    }),
    removeStaffMember: build.mutation<{ removed: true }, { user: string }>({
      query: ({ user }) => ({ path: `/api/staff/team/${encodeURIComponent(user)}`, method: 'DELETE', overlay: false }),
      invalidatesTags: ['StaffTeam', 'StaffAudit'],
    }),
    /** The staff audit, newest first; `fetchNextPage` follows `nextCursor`. */
    staffAudit: build.infiniteQuery<StaffAuditAnswer, AuditFilters, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextCursor },
      query: ({ queryArg, pageParam }) => ({
        path: '/api/staff/audit',
        query: { staff: queryArg.staff, action: queryArg.action, target: queryArg.target, limit: AUDIT_PAGE, cursor: pageParam ?? undefined },
        overlay: false,
      }),
      providesTags: ['StaffAudit'],
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useStaffTeamQuery, useLazyStaffLookupQuery, useSetStaffMemberMutation, useRemoveStaffMemberMutation, useStaffAuditInfiniteQuery } = teamApi;
