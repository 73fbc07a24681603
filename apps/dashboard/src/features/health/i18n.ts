/** The configuration check's own messages (./locales/<locale>.json), loaded with its list. */
import { defineFeatureCatalog } from '../../lib/i18n';
import type en from './locales/en.json';

export const catalog = defineFeatureCatalog<typeof en>('health', { en: () => import('./locales/en.json'), de: () => import('./locales/de.json') });
export const { t, useT, T: Message } = catalog;

/** A key of these messages or the shared ones. */
export type MessageKey = Parameters<typeof t>[0];
