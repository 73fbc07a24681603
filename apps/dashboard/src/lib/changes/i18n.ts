/**
 * The messages of configuration changes (`ConfigChanges`, `config-change-text.ts`): a part of the
 * dashboard's catalogue, loaded with the pages that show changes (Web Logs, Restore Configs).
 */
import { defineFeatureCatalog } from '../i18n';
import type en from './locales/en.json';

export const catalog = defineFeatureCatalog<typeof en>('changes', { en: () => import('./locales/en.json'), de: () => import('./locales/de.json') });
export const { useT } = catalog;

/** A key of these messages or the shared ones. */
export type ChangesKey = Parameters<typeof catalog.t>[0];
