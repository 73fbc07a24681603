/** The Blocklist tab's own messages (./locales/<locale>.json), with the Panel Menu's (its editor's words) and the dashboard's shared ones. */
import { defineFeatureCatalog } from '../../../../lib/i18n';
import { catalog as configs, editorCatalog } from '../../i18n';
import type en from './locales/en.json';

type ConfigsKey = Parameters<typeof configs.t>[0];

export const catalog = defineFeatureCatalog<typeof en, ConfigsKey>('automation-blocklist', { en: () => import('./locales/en.json'), de: () => import('./locales/de.json') }, [configs, editorCatalog]);
export const { useT } = catalog;
