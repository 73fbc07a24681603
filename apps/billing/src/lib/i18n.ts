/** The billing remote's message catalogue (src/locales/<locale>.json): plans, checkout, billing and subscription pages. */
import { defineCatalog } from '@tickety/shared';
import type en from '../locales/en.json';

export const catalog = defineCatalog<typeof en>('billing', { en: () => import('../locales/en.json'), de: () => import('../locales/de.json') });
export const { t, useT, T: Message } = catalog;
