/** The Automation page's own messages (./locales/<locale>.json), with the Panel Menu's (its editors' words). */
import { defineFeatureCatalog } from '../../../lib/i18n';
import { catalog as configs, type t as configsT } from '../i18n';
import type en from './locales/en.json';

type ConfigsKey = Parameters<typeof configsT>[0];

export const catalog = defineFeatureCatalog<typeof en, ConfigsKey>('automation', { en: () => import('./locales/en.json'), de: () => import('./locales/de.json') }, [configs]);
export const { t, useT } = catalog;
