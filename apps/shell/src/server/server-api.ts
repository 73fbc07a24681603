/** The server dashboard frame's one call, defined in @tickety/shared so the remotes' pages read the same cached answer. */
export { serverApi, useGetServerQuery } from '@tickety/shared';
