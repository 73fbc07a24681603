/** The staff remote's message catalogue (src/locales/<locale>.json): team manager, playground, system and support pages. */
import { defineCatalog } from '@tickety/shared';
import type en from '../locales/en.json';

export const catalog = defineCatalog<typeof en>('staff', { en: () => import('../locales/en.json'), de: () => import('../locales/de.json') });
export const { t, useT, T: Message } = catalog;
