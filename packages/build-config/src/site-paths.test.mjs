// @ts-check
/**
 * The site paths every front end may link to (packages/api-contract/src/hrefs.ts) are each served by
 * the shell or by one remote's route table: a remote cannot drop an address others link to without
 * this failing. (A test may read every app's table; the apps themselves never import each other.)
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('site paths', () => {
  it("are each served by the shell or a remote's route table", async () => {
    const { SITE_PATHS } = await import('../../api-contract/src/hrefs.ts');
    const { SHELL_PATHS, tablePages, matchesPattern } = await import('../../api-contract/src/route-table.ts');
    const served = [];
    for (const app of readdirSync(join(repo, 'apps'))) {
      const file = join(repo, 'apps', app, 'src', 'route-table.ts');
      if (!existsSync(file)) continue;
      const { routeTable } = await import(file);
      served.push(...tablePages(routeTable).map((/** @type {{ path: string }} */ p) => p.path));
      // a layout route with an index redirect (/dashboard/:server) is an address too
      served.push(...routeTable.routes.flatMap((/** @type {{ path?: string, children?: { index?: boolean }[] }} */ r) => (r.path && r.children?.some((c) => c.index) ? [r.path] : [])));
    }
    expect(served.length).toBeGreaterThan(20);
    for (const path of SITE_PATHS) {
      const ok = /** @type {readonly string[]} */ (SHELL_PATHS).includes(path) || served.some((pattern) => pattern === path || matchesPattern(pattern, path));
      expect(ok, `${path} is served`).toBe(true);
    }
  });
});
