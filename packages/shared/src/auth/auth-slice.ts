import { createAction, createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { ApiRequestError, errorCode } from '../client/errors';
import { request } from '../client/request';
import { getApiOrigin } from '../config';
import { AUTH_CACHE, AUTH_PATHS, OVERLAY } from '../constants';
import type { Guild, MeResponse, StaffInfo, SubscriptionSummary, User } from '../types';
import { openLoginPopup } from './login-popup';

/** docs/behaviour.md#auth-state: the client-side auth state. */
export interface AuthState {
  user: User | null;
  team: StaffInfo;
  sub: SubscriptionSummary;
  guilds: Guild[];
  guildsRefreshedAt: string | null;
  /** When the last answer of `@me` (or guild refresh) arrived, in ms since the epoch; null before the first. */
  lastLoaded: number | null;
  /**
   * 'loading' only before the first answer: a reload keeps 'loaded' (and the old data) until the new
   * answer arrives, so guards don't fall back to 'pending' on every reload.
   */
  status: 'idle' | 'loading' | 'loaded' | 'failed';
  /**
   * The server the open page shows (its id): set by the shell's server layout (`useOpenServer`),
   * cleared when the reader leaves it and on sign-out. What the user may do there is the cached
   * `GET /api/guilds/:server` answer (`selectOpenServer` in open-records.ts).
   */
  temporaryServer: string | null;
  /**
   * The billing record the open page shows (a subscription: its provider and id): set by the page
   * that opens it (`useOpenBilling`), cleared when the reader leaves it and on sign-out.
   */
  temporaryBilling: OpenBillingRecord | null;
}

/** A billing record a page has open. */
export interface OpenBillingRecord {
  provider: string;
  id: string;
}

export const initialAuthState: AuthState = {
  user: null,
  team: null,
  sub: null,
  guilds: [],
  guildsRefreshedAt: null,
  lastLoaded: null,
  status: 'idle',
  temporaryServer: null,
  temporaryBilling: null,
};

/**
 * A visitor whose (empty) session has loaded: what a prerendered public page shows, so the app that
 * takes the page over, once its own user load has answered, renders the same header.
 */
export function visitorAuthState(): AuthState {
  return { ...initialAuthState, status: 'loaded', lastLoaded: 0 };
}

/** Any store holding this slice. */
export interface AuthRootState {
  auth: AuthState;
}

type LoadUserArg = { force?: boolean } | undefined;

/** Where a loadUser answer came from: the network, another call's in-flight request, or the cache. */
export interface LoadUserMeta {
  source: 'network' | 'shared' | 'cache';
  /** When the answer arrived (for 'cache': the cached answer's time). */
  loadedAt: number;
}

/** The state as the answer `@me` would give now. */
function meFromState(state: AuthState): MeResponse {
  if (state.user) {
    return {
      isAuthenticated: true,
      user: state.user,
      guilds: state.guilds,
      team: state.team,
      sub: state.sub,
      guildsRefreshedAt: state.guildsRefreshedAt,
    };
  }
  return { isAuthenticated: false, user: null, guilds: [], team: null, sub: null, guildsRefreshedAt: null };
}

/** docs/behaviour.md#sign-in-sign-out-and-the-user-cache: the cache answers within 50 ms of the last load, or within 5 s while a user is signed in. */
function isCacheFresh(state: AuthState, now: number): boolean {
  if (state.lastLoaded === null) return false;
  const age = now - state.lastLoaded;
  if (age < 0) return false;
  return age < AUTH_CACHE.repeatMs || (state.user !== null && age < AUTH_CACHE.userMs);
}

interface Loaded {
  me: MeResponse;
  loadedAt: number;
}

interface Load {
  promise: Promise<Loaded>;
  settled: boolean;
}

/**
 * The newest `@me` request per store (keyed by the store's getState, which redux-thunk passes
 * unchanged). Calls made while it is in flight join it; a call whose request was superseded by a
 * forced reload (after login or logout) ends with the newest answer, so an older answer never
 * overwrites a newer one. Not an RTK Query endpoint: RTK Query joins even a forced call to the
 * request in flight (which carried the old session), and its age rules cannot depend on whether a
 * user is signed in.
 */
const newestLoad = new WeakMap<object, Load>();

async function newestAnswer(key: object, mine: Load): Promise<{ loaded: Loaded; own: boolean }> {
  let current = mine;
  let loaded = await current.promise;
  for (;;) {
    const newest = newestLoad.get(key);
    if (!newest || newest === current) return { loaded, own: current === mine };
    try {
      loaded = await newest.promise;
    } catch {
      // The newer request failed: this answer is the freshest there is.
      return { loaded, own: current === mine };
    }
    current = newest;
  }
}

export const loadUser = createAsyncThunk<
  MeResponse,
  LoadUserArg,
  { state: AuthRootState; fulfilledMeta: LoadUserMeta }
>('auth/loadUser', async (arg, { getState, fulfillWithValue }) => {
  const force = typeof arg === 'object' && arg !== null && arg.force === true;
  const key = getState;
  const running = newestLoad.get(key);
  if (running && !running.settled && !force) {
    const { loaded } = await newestAnswer(key, running);
    return fulfillWithValue(loaded.me, { source: 'shared', loadedAt: loaded.loadedAt });
  }
  const auth = getState().auth;
  if (!force && auth.lastLoaded !== null && isCacheFresh(auth, Date.now())) {
    return fulfillWithValue(meFromState(auth), { source: 'cache', loadedAt: auth.lastLoaded });
  }
  const load: Load = {
    promise: request<MeResponse>({ path: AUTH_PATHS.me }).then((me) => ({ me, loadedAt: Date.now() })),
    settled: false,
  };
  newestLoad.set(key, load);
  try {
    const { loaded, own } = await newestAnswer(key, load);
    return fulfillWithValue(loaded.me, { source: own ? 'network' : 'shared', loadedAt: loaded.loadedAt });
  } finally {
    load.settled = true;
  }
});

/** Internal: the session ended (logout answered); clears what belongs to the user. */
export const signedOut = createAction('auth/signedOut');

export const logout = createAsyncThunk<{ isAuthenticated: boolean }, void, { state: AuthRootState }>(
  'auth/logout',
  async (_, { dispatch }) => {
    const answer = await request<{ isAuthenticated: boolean }>({
      path: AUTH_PATHS.logout,
      timeoutMs: OVERLAY.logoutTimeoutMs,
      fromDashboard: true,
    });
    dispatch(signedOut());
    if (answer.isAuthenticated === false) await dispatch(loadUser({ force: true }));
    return answer;
  },
);

/** Opens the sign-in popup; true once signed in (the user is then reloaded, bypassing the cache). */
export const login = createAsyncThunk<boolean, void, { state: AuthRootState }>(
  'auth/login',
  async (_, { dispatch }) => {
    const ok = await openLoginPopup(getApiOrigin(), AUTH_PATHS.login);
    if (ok) await dispatch(loadUser({ force: true }));
    return ok;
  },
);

/** Why a guild refresh failed, for an inline message (1003 carries Retry-After). */
export interface RefreshGuildsError {
  code: number;
  status: number;
  message: string;
  /** Seconds to wait before refreshing again, when the API said. */
  retryAfter: number | null;
}

/**
 * POST /api/auth/guilds/refresh. A silent request (no overlay): a refresh button shows the failure
 * next to itself, so a rate-limit answer (1003) rejects with its message and Retry-After rather than
 * blocking the page with an overlay that invites retrying.
 */
export const refreshGuilds = createAsyncThunk<
  MeResponse,
  void,
  { state: AuthRootState; rejectValue: RefreshGuildsError; fulfilledMeta: { loadedAt: number } }
>('auth/refreshGuilds', async (_, { rejectWithValue, fulfillWithValue }) => {
  try {
    const me = await request<MeResponse>({ path: AUTH_PATHS.refreshGuilds, method: 'POST', overlay: false });
    return fulfillWithValue(me, { loadedAt: Date.now() });
  } catch (error) {
    if (!(error instanceof ApiRequestError)) throw error;
    return rejectWithValue({ code: errorCode(error), status: error.status, message: error.message, retryAfter: error.retryAfter });
  }
});

function applyMe(state: AuthState, me: MeResponse, loadedAt: number): void {
  state.user = me.user;
  state.team = me.team;
  state.sub = me.sub;
  state.guilds = me.guilds;
  state.guildsRefreshedAt = me.guildsRefreshedAt;
  state.lastLoaded = loadedAt;
  state.status = 'loaded';
}

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    /** The open server's id; null when none is open. */
    setTemporaryServer(state, action: PayloadAction<string | null>) {
      state.temporaryServer = action.payload;
    },
    setTemporaryBilling(state, action: PayloadAction<OpenBillingRecord | null>) {
      state.temporaryBilling = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(loadUser.pending, (state) => {
        if (state.status !== 'loaded') state.status = 'loading';
      })
      .addCase(loadUser.fulfilled, (state, action) => {
        if (action.meta.source === 'cache') {
          state.status = 'loaded';
          return;
        }
        applyMe(state, action.payload, action.meta.loadedAt);
      })
      .addCase(loadUser.rejected, (state) => {
        if (state.lastLoaded === null) state.status = 'failed';
      })
      .addCase(signedOut, (state) => {
        state.user = null;
        state.team = null;
        state.sub = null;
        state.guilds = [];
        state.guildsRefreshedAt = null;
        state.lastLoaded = null;
        // What a page had open belonged to the signed-in user.
        state.temporaryServer = null;
        state.temporaryBilling = null;
      })
      .addCase(refreshGuilds.fulfilled, (state, action) => {
        applyMe(state, action.payload, action.meta.loadedAt);
      });
  },
});

export const { setTemporaryServer, setTemporaryBilling } = authSlice.actions;
