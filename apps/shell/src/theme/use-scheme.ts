import { useSyncExternalStore } from 'react';
import { onSchemeChange, type Scheme, shownScheme } from './theme';

export function useScheme(): Scheme {
  return useSyncExternalStore(onSchemeChange, shownScheme, () => 'light');
}
