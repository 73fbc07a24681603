/** The marketing remote's message catalogue (src/locales/<locale>.json): every page and component of the public site. */
import { defineCatalog } from '@tickety/shared';
import type en from '../locales/en.json';

export const catalog = defineCatalog<typeof en>('marketing', { en: () => import('../locales/en.json'), de: () => import('../locales/de.json') });
export const { t, useT, T: Message } = catalog;

/** A key of this catalogue (typed from en.json). */
export type MessageKey = Parameters<typeof t>[0];
