/**
 * The Panel Menu's own messages, in two parts: the list's (./locales/<locale>.json, loaded with its
 * page) and the editors' (./editors/locales/<locale>.json: the editors, the send dialog and the
 * Automation page's sections, loaded with their chunks by `editorCatalog.ready()`). Both are in the
 * dashboard's one namespace, so `t` reads either part's keys once that part has loaded.
 */
import { defineFeatureCatalog } from '../../lib/i18n';
import type editor from './editors/locales/en.json';
import type en from './locales/en.json';

export const editorCatalog = defineFeatureCatalog<typeof editor>('configs-editor', { en: () => import('./editors/locales/en.json'), de: () => import('./editors/locales/de.json') });
export const catalog = defineFeatureCatalog<typeof en & typeof editor>('configs', { en: () => import('./locales/en.json'), de: () => import('./locales/de.json') });
export const { t, useT, T: Message } = catalog;
