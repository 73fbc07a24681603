/**
 * Staff's announcements (`/api/staff/announcements`): the list (newest first, a page at a time) and
 * the changes: create (a draft, or published at once), edit / publish from a version, withdraw. Not
 * through the overlay: the System Update page shows failures in place (in the form, in the dialog).
 * Type-only imports of the contract's schemas: no zod at run time.
 */
import type { Announcement, AnnouncementsAnswer, CreateAnnouncementBody, EditAnnouncementBody } from '@tickety/api-contract';
import { api } from '@tickety/shared';

export type { Announcement };

/** The notices the page asks for at a time. */
const ANNOUNCEMENTS_PAGE = 50;

/** A change that went through, or one refused (409) because the notice changed meanwhile: the list is out of date either way. */
const listOutOfDate = (error: unknown) => !error || (error as { status?: unknown }).status === 409;

export const announcementsApi = api.enhanceEndpoints({ addTagTypes: ['StaffAnnouncements'] }).injectEndpoints({
  endpoints: (build) => ({
    /** Every notice, `fetchNextPage` following `nextCursor`; a refetch reads every page shown again. */
    staffAnnouncements: build.infiniteQuery<AnnouncementsAnswer, void, string | null>({
      infiniteQueryOptions: { initialPageParam: null, getNextPageParam: (last) => last.nextCursor },
      query: ({ pageParam }) => ({
        path: '/api/staff/announcements',
        query: { limit: ANNOUNCEMENTS_PAGE, cursor: pageParam ?? undefined },
        overlay: false,
        fromDashboard: true,
      }),
      providesTags: ['StaffAnnouncements'],
      keepUnusedDataFor: 30,
    }),
    createAnnouncement: build.mutation<Announcement, CreateAnnouncementBody>({
      query: (body) => ({ path: '/api/staff/announcements', method: 'POST', body, overlay: false }),
      invalidatesTags: (_result, error) => (error ? [] : ['StaffAnnouncements']),
    }),
    /** 409 (1013) when someone changed it since `version`, or it has ended or been withdrawn. */
    editAnnouncement: build.mutation<Announcement, { id: string } & EditAnnouncementBody>({
      query: ({ id, ...body }) => ({ path: `/api/staff/announcements/${encodeURIComponent(id)}`, method: 'PATCH', body, overlay: false }),
      invalidatesTags: (_result, error) => (listOutOfDate(error) ? ['StaffAnnouncements'] : []),
    }),
    withdrawAnnouncement: build.mutation<Announcement, { id: string; version: number }>({
      query: ({ id, version }) => ({ path: `/api/staff/announcements/${encodeURIComponent(id)}/withdraw`, method: 'POST', body: { version }, overlay: false }),
      invalidatesTags: (_result, error) => (listOutOfDate(error) ? ['StaffAnnouncements'] : []),
    }),
  }),
});

export const { useStaffAnnouncementsInfiniteQuery, useCreateAnnouncementMutation, useEditAnnouncementMutation, useWithdrawAnnouncementMutation } = announcementsApi;

/** A time as a `datetime-local` input shows it (the reader's own zone, to the minute); '' for none. */
export function toLocalInput(isoTime: string | null): string {
  if (!isoTime) return '';
  const time = new Date(isoTime);
  if (Number.isNaN(time.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}T${pad(time.getHours())}:${pad(time.getMinutes())}`;
}

/** A `datetime-local` value (the reader's zone) as an ISO time; null for an empty field, undefined for one that is not a time. */
export function fromLocalInput(value: string): string | null | undefined {
  if (value.trim() === '') return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/** The reader's offset from UTC as "UTC+01:00" (the form's times are in it). */
export function utcOffsetLabel(at: Date = new Date()): string {
  const minutes = -at.getTimezoneOffset();
  const sign = minutes >= 0 ? '+' : '−';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
