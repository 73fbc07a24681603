/**
 * The policy documents' text, per language: loaded on demand in the browser (one chunk per document
 * and language), given up front to the prerender (which cannot wait for a chunk).
 */
import type { Locale } from '@tickety/shared';
import { createContext } from 'react';
import type { PolicyId } from './policies';

type DocumentLoader = () => Promise<{ default: string }>;

/**
 * Each document in each language: content/<id>.md (next to this file) in English, content/de/<id>.md in German.
 * Explicit imports, so the bundler sees every file and a missing one fails the build.
 */
const POLICY_LOADERS: Record<Locale, Record<PolicyId, DocumentLoader>> = {
  en: {
    'terms-of-service': () => import('./content/terms-of-service.md'),
    'privacy-policy': () => import('./content/privacy-policy.md'),
    legal: () => import('./content/legal.md'),
    'refund-policy': () => import('./content/refund-policy.md'),
    'aup-policy': () => import('./content/aup-policy.md'),
  },
  de: {
    'terms-of-service': () => import('./content/de/terms-of-service.md'),
    'privacy-policy': () => import('./content/de/privacy-policy.md'),
    legal: () => import('./content/de/legal.md'),
    'refund-policy': () => import('./content/de/refund-policy.md'),
    'aup-policy': () => import('./content/de/aup-policy.md'),
  },
};

/** A document's Markdown source in one language. */
export interface PolicyText {
  id: PolicyId;
  locale: Locale;
  source: string;
}

const pending = new Map<string, Promise<PolicyText>>();
const loaded = new Map<string, PolicyText>();

/** Loads a document in a language (once; a failed load is tried again next time). */
export function loadPolicy(id: PolicyId, locale: Locale): Promise<PolicyText> {
  const key = `${locale}/${id}`;
  let loading = pending.get(key);
  if (!loading) {
    loading = POLICY_LOADERS[locale][id]().then((chunk) => {
      const text = { id, locale, source: chunk.default };
      loaded.set(key, text);
      return text;
    });
    // A failed chunk load may succeed on the next attempt: do not keep the failure.
    loading.catch(() => pending.delete(key));
    pending.set(key, loading);
  }
  return loading;
}

/** The document if it has been loaded already (the same object every time), else undefined. */
export function loadedPolicy(id: PolicyId, locale: Locale): PolicyText | undefined {
  return loaded.get(`${locale}/${id}`);
}

/**
 * Starts loading the document served at `pathname` (`/privacy-policy`) in `locale`, if it is one, and
 * resolves once it has arrived or failed. The routes module waits for it with the page's own chunk, so
 * the page's first render already shows the text (a prerendered document is taken over by the same
 * document, not by a skeleton).
 */
export function preloadPolicyAt(pathname: string, locale: Locale): Promise<void> {
  const id = pathname.replace(/^\/+|\/+$/g, '');
  if (!Object.hasOwn(POLICY_LOADERS[locale], id)) return Promise.resolve();
  return loadPolicy(id as PolicyId, locale).then(
    () => undefined,
    () => undefined,
  );
}

/** Documents' sources given up front, by language (the prerender bundles them all). */
export type PolicySources = Partial<Record<Locale, Partial<Record<PolicyId, string>>>>;

/** Sources the policy page uses instead of loading them (none in the browser). */
export const PolicySourcesContext = createContext<PolicySources>({});
