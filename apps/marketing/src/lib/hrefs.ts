import { hrefs } from '@tickety/shared';
import { routeTable } from '../route-table';

/** Links to this remote's pages and the site paths, built from the route table (a wrong path is a type error). */
export const href = hrefs(routeTable);
