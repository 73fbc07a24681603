import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import { authSlice } from './auth/auth-slice';
import { api } from './client/api';

/**
 * Slices remotes inject at run time. A remote declares its slice for typing:
 * `declare module '@tickety/shared' { interface LazyLoadedSlices { billing: BillingState } }`
 * and calls `rootReducer.inject(billingSlice)`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the remotes
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices(authSlice, api).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;

export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware().concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
