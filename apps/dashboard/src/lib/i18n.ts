/** The dashboard's message catalogue (src/locales/<locale>.json): Manage Servers, the server pages and the transcripts. */
import { defineCatalog } from '@tickety/shared';
import type en from '../locales/en.json';

export const catalog = defineCatalog<typeof en>('dashboard', { en: () => import('../locales/en.json'), de: () => import('../locales/de.json') });
export const { t, useT, T: Message } = catalog;

/** A key of this catalogue (for data that names a message rather than holding its text). */
export type MessageKey = Parameters<typeof t>[0];
