/** The shell's message catalogue (src/locales/<locale>.json): layouts, account menu, 404, errors. */
import { defineCatalog } from '@tickety/shared';
import type en from '../locales/en.json';

export const catalog = defineCatalog<typeof en>('shell', { en: () => import('../locales/en.json'), de: () => import('../locales/de.json') });
export const { t, useT, T: Message } = catalog;

/** A key of the shell's catalogue. */
export type ShellKey = Parameters<typeof t>[0];
