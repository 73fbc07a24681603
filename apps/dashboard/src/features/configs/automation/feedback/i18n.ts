/** The Automation page's Feedback tab: its own messages (./locales/<locale>.json) and the Panel Menu's (the fields, the preview). */
import { defineFeatureCatalog } from '../../../../lib/i18n';
import { catalog as configs, editorCatalog } from '../../i18n';
import type editorEn from '../../editors/locales/en.json';
import type configsEn from '../../locales/en.json';
import type en from './locales/en.json';

export const catalog = defineFeatureCatalog<typeof en, Extract<keyof typeof configsEn | keyof typeof editorEn, string>>(
  'automation-feedback',
  { en: () => import('./locales/en.json'), de: () => import('./locales/de.json') },
  [configs, editorCatalog],
);
export const { useT } = catalog;
