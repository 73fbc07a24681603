/** The shared package's own messages (the request client, the overlay, the error catalogue). */
import en from '../locales/en.json';
import { defineCatalog } from './catalog';
import { addMessages } from './i18n';

export const sharedCatalog = defineCatalog<typeof en>('shared', { en: async () => en, de: () => import('../locales/de.json') });
// English is part of the package (a few KB): the client's error messages can always be shown, even
// when a catalogue chunk could not be fetched.
addMessages('shared', 'en', en);
