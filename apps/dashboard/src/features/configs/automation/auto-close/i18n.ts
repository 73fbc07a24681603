/** The Automation page's Auto-close tab's own messages (./locales/<locale>.json), with the Panel Menu's editor messages it reuses. */
import { defineFeatureCatalog } from '../../../../lib/i18n';
import { catalog as configs, editorCatalog } from '../../i18n';
import type editorEn from '../../editors/locales/en.json';
import type configsEn from '../../locales/en.json';
import type en from './locales/en.json';

export const catalog = defineFeatureCatalog<typeof en, Extract<keyof typeof configsEn | keyof typeof editorEn, string>>('automation-auto-close', { en: () => import('./locales/en.json'), de: () => import('./locales/de.json') }, [configs, editorCatalog]);
export const { t, useT, T: Message } = catalog;
