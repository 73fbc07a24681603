import { createApi } from '@reduxjs/toolkit/query/react';
import { overlayBaseQuery } from './base-query';

/** The one RTK Query API. Features add endpoints with `api.injectEndpoints` (and get hooks). */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: overlayBaseQuery,
  // The cache tags endpoints provide and invalidate (the user and their servers live in the auth slice).
  tagTypes: ['Plans', 'Status'],
  endpoints: () => ({}),
});
