/**
 * @tickety/shared: the Module Federation singleton (one instance for the shell and every remote).
 * Auth slice, request/overlay client, permission guards, remote contracts, the store's root reducer.
 */
export * from './contracts/remotes';
export type { ApiError, Guild, MeResponse, RuntimeConfig, StaffPermission, Sub, Team, User } from './types';

// Discord ids (the one check, from the contract)
export { isSnowflake } from '@tickety/api-contract';

// formatters (prices, numbers, dates, relative times) and the ticking clock
export { formatDate, formatDateTime, formatNumber, formatPrice, formatRelative, type Instant, userLocale } from './format/format';
export { useNow } from './format/use-now';

// configuration
export { configureShared, getRuntimeConfig, type SharedConfiguration, useRuntimeConfig } from './config';
export { OVERLAY } from './constants';

// store (remotes build slices and selectors with these, never by importing Redux Toolkit themselves)
export { createAsyncThunk, createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
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
  visitorAuthState,
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
export { ApiRequestError, type ApiRequestErrorKind, LOGIN_BUTTON_LABEL } from './client/errors';
export { overlayActions } from './client/overlay-actions';
export {
  type OverlayButtons,
  type OverlayErrorView,
  type OverlayState,
  overlayStore,
  useOverlayState,
} from './client/overlay-store';
export { type RequestMethod, type RequestOptions, request } from './client/request';

// routing for pages: remotes import the router only from here. react-router is bundled once, in the
// shell (tree-shaken), and reaches every remote through this singleton, so all pages share one router.
export { Link, NavLink, Navigate, Outlet, useLocation, useMatches, useNavigate, useParams, useSearchParams } from 'react-router-dom';
// routing helpers for pages
export { botInviteUrl } from './routing/invite';
export { useRouteData } from './routing/route-data';

// the plan catalogue and its price helpers
export { type BillingInterval, isPaid, plansApi, priceFor, usePlansQuery, yearlySaving } from './plans';

// guards
export { evaluateGuard, type GuardDecision, hasPermission, isStaff } from './guards/guards';
