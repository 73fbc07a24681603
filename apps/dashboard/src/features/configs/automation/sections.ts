/**
 * The Automation page's tabs and the section each one shows: its own lazy chunk (with its messages),
 * loaded with the section host. A tab appears once its section is listed here.
 */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import type { Catalog } from '@tickety/shared';
import { catalog as autoCloseMessages } from './auto-close/i18n';
import { catalog as blocklistMessages } from './blocklist/i18n';
import { catalog as feedbackMessages } from './feedback/i18n';
import { editorCatalog } from '../i18n';
import type { AutomationTab, SectionProps } from './section-props';
import { catalog as tagsMessages } from './tags/i18n';

type SectionModule = { default: ComponentType<SectionProps> };

/** A section's code, its messages (`ready`) and the host, fetched together. */
export function section(code: () => Promise<SectionModule>, messages: Pick<Catalog, 'ready'>): LazyExoticComponent<ComponentType<SectionProps>> {
  return lazy(() => Promise.all([import('./section-host'), code(), messages.ready(), editorCatalog.ready()]).then(([host, module]) => ({ default: host.withResources(module.default) })));
}

export const SECTIONS: Partial<Record<AutomationTab, LazyExoticComponent<ComponentType<SectionProps>>>> = {
  tags: section(() => import('./tags/section'), tagsMessages),
  'auto-close': section(() => import('./auto-close/section'), autoCloseMessages),
  blocklist: section(() => import('./blocklist/section'), blocklistMessages),
  feedback: section(() => import('./feedback/section'), feedbackMessages),
};
