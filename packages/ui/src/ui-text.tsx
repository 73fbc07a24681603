import { createContext, type ReactNode, useContext } from 'react';

/**
 * The few words the primitives say themselves (a spinner's "Loading…", a table's sort hints), in the
 * reader's language: the shell provides them from its catalogue; English without a provider.
 */
export interface UiText {
  loading: string;
  /** Accessible name of a sortable column's button: "Sort by {column}". */
  sortBy: (column: string) => string;
  sortedAscending: string;
  sortedDescending: string;
}

export const ENGLISH_UI_TEXT: UiText = {
  loading: 'Loading…',
  sortBy: (column) => `Sort by ${column}`,
  sortedAscending: 'sorted ascending',
  sortedDescending: 'sorted descending',
};

const UiTextContext = createContext<UiText>(ENGLISH_UI_TEXT);

export function UiTextProvider({ value, children }: { value: UiText; children: ReactNode }) {
  return <UiTextContext.Provider value={value}>{children}</UiTextContext.Provider>;
}

export function useUiText(): UiText {
  return useContext(UiTextContext);
}
