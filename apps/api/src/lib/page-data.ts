import { type Composition, leafPaths, type PageData, type Plan, pageOwner, type StatusResponse } from '@tickety/api-contract';

/** What each page that waits for data on arrival gets in its HTML, by its remote and page id. */
const PAGE_DATA: Record<string, Array<keyof PageData>> = {
  'marketing:status': ['status'],
  'marketing:premium': ['plans'],
  'marketing:premiumDisplay': ['plans'],
};

/** Where a page's data comes from: this server's own services (no request to itself). */
export interface PageDataSources {
  status: () => Promise<StatusResponse>;
  plans: () => Plan[];
}

/** The page data for the page at `path` (decoded), or null when it needs none. `live`: it changes while the page is open (the app starts at once to refresh it). */
export async function pageDataFor(composition: Composition, path: string, sources: PageDataSources): Promise<{ data: PageData; live: boolean } | null> {
  const want = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const remote = pageOwner(composition, want);
  const table = remote ? composition.tables[remote] : undefined;
  const page = table ? leafPaths(table).find((leaf) => leaf.path === want)?.route.page : undefined;
  const wanted = page && remote ? PAGE_DATA[`${remote}:${page}`] : undefined;
  if (!wanted) return null;
  const data: PageData = {};
  if (wanted.includes('plans')) data.plans = sources.plans();
  if (wanted.includes('status')) data.status = await sources.status();
  return { data, live: wanted.includes('status') };
}
