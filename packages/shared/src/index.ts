/**
 * @tickety/shared: the Module Federation singleton (one instance for the shell and every remote).
 * Auth slice, request/overlay client, permission guards, remote contracts, the store's root reducer.
 */


// store (remotes build slices and selectors with these, never by importing Redux Toolkit themselves)
export { createAsyncThunk, createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
// Discord ids (the one check, from the contract)
export { type HrefQuery, hrefs, isSnowflake, type PathParams, SITE_PATHS, type SitePath, siteHref, type TablePaths } from '@tickety/api-contract';
// routing for pages: remotes import the router only from here. react-router is bundled once, in the
// shell (tree-shaken), and reaches every remote through this singleton, so all pages share one router.
export { Link, Navigate, NavLink, Outlet, useLocation, useMatches, useNavigate, useParams, useSearchParams } from 'react-router-dom';
// auth
export {
  type AuthState,
  type LoadUserMeta,
  loadUser,
  login,
  logout,
  type OpenBillingRecord,
  type RefreshGuildsError,
  refreshGuilds,
  visitorAuthState,
} from './auth/auth-slice';
export {
  type OpenServer,
  selectOpenBilling,
  selectOpenServer,
  selectOpenServerAccess,
  serverApi,
  useGetServerQuery,
  useOpenBilling,
  useOpenServer,
} from './auth/open-records';
export {
  selectAuth,
  selectAuthStatus,
  selectDashboardGuilds,
  selectGuilds,
  selectIsAuthenticated,
  selectIsStaff,
  selectManageableGuilds,
  selectStaffPermissions,
  selectSub,
  selectTeam,
  selectUser,
} from './auth/selectors';
export { type AnalyticsSettings, type AnalyticsStore, PROFITWELL_SCRIPT_ID, type ProfitwellFunction, resetAnalytics, scheduleAnalytics } from './billing/analytics';
export { loadPaddle, onPaddleEvent, type PaddleCheckoutOptions, type PaddleEvent, type PaddleGlobal, resetPaddle, schedulePaddle } from './billing/paddle';
// request / overlay client
export { api } from './client/api';
export { ApiRequestError, type ApiRequestErrorKind, errorText, failureDetail, failureText, loginButtonLabel } from './client/errors';
export { overlayActions } from './client/overlay-actions';
export {
  type OverlayButtons,
  type OverlayErrorView,
  type OverlayState,
  useOverlayState,
} from './client/overlay-store';
export { buildUrl, type RequestMethod, type RequestOptions, request } from './client/request';
// configuration
export { configureShared, getDispatch, type SharedConfiguration, useRuntimeConfig } from './config';
export { OVERLAY } from './constants';
export * from './contracts/remotes';
// formatters (prices, numbers, dates, relative times) and the ticking clock
export { formatDate, formatDateTime, formatNumber, formatPrice, formatRelative, type Instant } from './format/format';
export { useNow } from './format/use-now';
// badges on the server sidebar's entries (a remote publishes, the shell's sidebar shows)
export { type SidebarBadge, setSidebarBadge, useSidebarBadge } from './sidebar/badges';
// guards
export { evaluateGuard, type GuardDecision, hasPermission } from './guards/guards';
export { type AreaDecision, evaluateServerArea, serverAreaOf } from './guards/server-area';
// the language layer: one @lingui/core instance, each front end's catalogue under its namespace
export { type Catalog, type CatalogLoaders, defineCatalog, defineCatalogPart, type Translate, useI18nRevision, useLocale } from './i18n/catalog';
export { sharedCatalog } from './i18n/catalog-shared';
export { activeLocale, type CatalogModule, changeLocale, i18n, type MessageValues, routeText, startI18n } from './i18n/i18n';
export {
  DEFAULT_LOCALE,
  isLocale,
  LOCALE_NAMES,
  LOCALE_STORAGE_KEY,
  LOCALES,
  type Locale,
  localeFromAcceptLanguage,
  } from './i18n/locales';

// the plan catalogue and its price helpers
export { type BillingInterval, isPaid, priceFor, seedPlans, usePlansQuery, yearlySaving } from './plans';
export { pageData, resetPageData } from './routing/page-data';
// routing helpers for pages
export { botInviteUrl } from './routing/invite';
export { usePrerendering } from './routing/prerendering';
export { useRouteData } from './routing/route-data';
export {
  type AppDispatch,
  type AppStore,
  type LazyLoadedSlices,
  makeStore,
  type RootState,
  useAppDispatch,
  useAppSelector,
} from './store';
export type {
  AccessArea,
  AccessLevel,
  ApiError,
  Guild,
  GuildWithAccess,
  MeResponse,
  RuntimeConfig,
  ServerAccess,
  StaffInfo,
  StaffPermission,
  SubscriptionSummary,
  User,
} from './types';
