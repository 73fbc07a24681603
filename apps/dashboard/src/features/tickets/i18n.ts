/** The Tickets page's own messages (./locales/<locale>.json), loaded with its page, with the conversation's and the shared ones. */
import { catalog as discordMessage, type DiscordMessageKey } from '../../components/discord/i18n';
import { defineFeatureCatalog } from '../../lib/i18n';
import type en from './locales/en.json';

export const catalog = defineFeatureCatalog<typeof en, DiscordMessageKey>('tickets', { en: () => import('./locales/en.json'), de: () => import('./locales/de.json') }, [discordMessage]);
export const { t, useT, T: Message } = catalog;

/** A key of this page's messages or the shared ones. */
export type MessageKey = Parameters<typeof t>[0];
