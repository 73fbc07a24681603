/**
 * @tickety/shared: the Module Federation singleton (one instance for the shell and every remote).
 * Auth slice, request/overlay client, permission guards, remote contracts, the store's root reducer.
 */
export * from './contracts/remotes';
export type { ApiError, Guild, MeResponse, RuntimeConfig, StaffPermission, Sub, Team, User } from './types';

// configuration
export { configureShared, getRuntimeConfig, type SharedConfiguration, useRuntimeConfig } from './config';
export { OVERLAY } from './constants';

// store
export {
  type AppDispatch,
  type AppStore,
  type LazyLoadedSlices,
  makeStore,
  type RootState,
  rootReducer,
  useAppDispatch,
  useAppSelector,
} from './store';

// auth
export {
  type AuthState,
  authSlice,
  type LoadUserMeta,
  loadUser,
  login,
  logout,
  type RefreshGuildsError,
  refreshGuilds,
  setTemporaryBilling,
  setTemporaryServer,
} from './auth/auth-slice';
export {
  selectAuth,
  selectAuthStatus,
  selectGuilds,
  selectIsAuthenticated,
  selectIsStaff,
  selectManageableGuilds,
  selectStaffPermissions,
  selectSub,
  selectTeam,
  selectUser,
} from './auth/selectors';

// request / overlay client
export { api } from './client/api';
export { type OverlayBaseQueryError, overlayBaseQuery } from './client/base-query';
export { ApiRequestError, type ApiRequestErrorKind } from './client/errors';
export { overlayActions } from './client/overlay-actions';
export {
  type OverlayButtons,
  type OverlayErrorView,
  type OverlayState,
  overlayStore,
  useOverlayState,
} from './client/overlay-store';
export { type RequestMethod, type RequestOptions, request } from './client/request';

// routing helpers for pages
export { botInviteUrl } from './routing/invite';
export { useRouteData } from './routing/route-data';

// guards
export { evaluateGuard, type GuardDecision, hasPermission, isStaff } from './guards/guards';
