// @ts-check
/**
 * The remotes, in the order the site's config.json lists them: the one list. Plain JavaScript so
 * that the build (build-config), the deploy script and the benches, which run without TypeScript,
 * read the same list the API and the front ends get from `@tickety/api-contract`.
 */
export const REMOTE_IDS = /** @type {const} */ (['marketing', 'billing', 'dashboard', 'staff']);

/** The remote fetched only for a signed-in user holding a staff permission. */
export const STAFF_REMOTE = 'staff';
