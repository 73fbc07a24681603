import { createApi } from '@reduxjs/toolkit/query/react';
import { overlayBaseQuery } from './base-query';

/** The one RTK Query API. Features add endpoints with `api.injectEndpoints` (and get hooks). */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: overlayBaseQuery,
  // The cache tags endpoints provide and invalidate (the user and their servers live in the auth slice).
  // The dashboard's are per server (`id`: the server's id): a write invalidates what it changes.
  tagTypes: ['Plans', 'Status', 'ServerConfig', 'ConfigVersions', 'PanelPosts', 'ServerPremium', 'WebLog'],
  endpoints: () => ({}),
});
