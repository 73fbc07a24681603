/** The transcript viewer's (v1 and v2) own messages (./locales/<locale>.json), loaded with its page, and the dashboard's shared ones. */
import { catalog as discordMessage, type DiscordMessageKey } from '../../components/discord/i18n';
import { defineFeatureCatalog } from '../../lib/i18n';
import type en from './locales/en.json';

export const catalog = defineFeatureCatalog<typeof en, DiscordMessageKey>('transcript', { en: () => import('./locales/en.json'), de: () => import('./locales/de.json') }, [discordMessage]);
export const { t, useT, T: Message } = catalog;
