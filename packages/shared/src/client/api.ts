import { createApi } from '@reduxjs/toolkit/query/react';
import { overlayBaseQuery } from './base-query';

/** The one RTK Query API. Features add endpoints with `api.injectEndpoints` (and get hooks). */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: overlayBaseQuery,
  tagTypes: ['Me', 'Guilds', 'Plans', 'Status'],
  endpoints: () => ({}),
});
