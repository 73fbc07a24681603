import { type UiText, UiTextProvider } from '@tickety/ui';
import { type ReactNode, useMemo } from 'react';
import { useT } from './i18n';

/** Gives the UI primitives (spinners, tables) their few words in the reader's language. */
export function ShellUiText({ children }: { children: ReactNode }) {
  const t = useT();
  const value = useMemo<UiText>(
    () => ({ loading: t('ui.loading'), sortBy: (column) => t('ui.sortBy', { column }), sortedAscending: t('ui.sortedAscending'), sortedDescending: t('ui.sortedDescending') }),
    [t],
  );
  return <UiTextProvider value={value}>{children}</UiTextProvider>;
}
