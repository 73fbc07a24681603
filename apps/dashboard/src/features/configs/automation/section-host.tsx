/**
 * A tab's section with the server's resources around it: loaded together with the section (both
 * lazy), so the page's own chunk carries neither the pickers nor the live preview's parser.
 */
import type { ComponentType } from 'react';
import { ServerResourcesProvider } from '../resources-provider';
import type { SectionProps } from './section-props';

export function withResources(Section: ComponentType<SectionProps>): ComponentType<SectionProps> {
  return function SectionWithResources(props: SectionProps) {
    return (
      <ServerResourcesProvider server={props.server} retry={props.retryResources}>
        <Section {...props} />
      </ServerResourcesProvider>
    );
  };
}
