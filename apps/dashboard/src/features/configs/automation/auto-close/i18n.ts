/** The Automation page's Auto-close tab's own messages (./locales/<locale>.json), with the Panel Menu's editor messages it reuses. */
import { defineFeatureCatalog } from '../../../../lib/i18n';
import { catalog as configs } from '../../i18n';
import type configsEn from '../../locales/en.json';
import type en from './locales/en.json';

export const catalog = defineFeatureCatalog<typeof en, Extract<keyof typeof configsEn, string>>('automation-auto-close', { en: () => import('./locales/en.json'), de: () => import('./locales/de.json') }, [configs]);
export const { t, useT, T: Message } = catalog;
