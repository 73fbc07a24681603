/**
 * The Automation page's tabs and the section each one shows (its own lazy chunk with its messages).
 * A tab appears once its section is listed here.
 */
import { type ComponentType, type LazyExoticComponent } from 'react';
import type { AutomationTab, SectionProps } from './section-props';

export const SECTIONS: Partial<Record<AutomationTab, LazyExoticComponent<ComponentType<SectionProps>>>> = {};
