/** Typed links: this remote's own paths and the site paths (a path that does not exist is a type error). */
import { hrefs } from '@tickety/shared';
import { routeTable } from '../route-table';

export const href = hrefs(routeTable);
