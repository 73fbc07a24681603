/**
 * The words of a Discord-like message (`message.tsx`: system lines, badges, "edited", deleted): a
 * part of the dashboard's catalogue, loaded with the pages that show conversations (the transcript
 * viewer, the Tickets page), whose parts `use` it.
 */
import { defineFeatureCatalog } from '../../lib/i18n';
import type en from './locales/en.json';

export const catalog = defineFeatureCatalog<typeof en>('discord-message', { en: () => import('./locales/en.json'), de: () => import('./locales/de.json') });
export const { useT } = catalog;

/** A key of these messages or the shared ones. */
export type DiscordMessageKey = Parameters<typeof catalog.t>[0];
