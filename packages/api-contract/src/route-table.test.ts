import { describe, expect, it } from 'vitest';
import { composeRouteTables, isPagePath, leafPaths, matchesPattern, parseRouteTable, type RouteTable, RouteTableError } from './route-table';

const billing: RouteTable = {
  schema: 1,
  remote: 'billing',
  mounts: ['/billing', '/premium-purchase'],
  routes: [
    { path: '/premium-purchase', layout: 'subscription', page: 'premiumPurchase', title: 'Premium Purchase' },
    { path: '/billing', layout: 'subscription', page: 'billing', requiresAuth: true },
    { path: '/billing/:user/paddle/:id', layout: 'subscription', page: 'provider', permission: 'DASHBOARD_SUPPORT_SYSTEM_READ', data: { provider: 'paddle' } },
  ],
};
const dashboard: RouteTable = {
  schema: 1,
  remote: 'dashboard',
  mounts: ['/dashboard'],
  routes: [
    { path: '/dashboard', layout: 'login', page: 'manageServers', requiresAuth: true },
    {
      path: '/dashboard/:server',
      layout: 'server',
      requiresAuth: true,
      children: [
        { index: true, redirect: 'configs' },
        { path: 'configs', page: 'serverConfigs', sidebar: { label: 'Panel Menu', icon: 'panels' } },
      ],
    },
  ],
};
const marketing: RouteTable = { schema: 1, remote: 'marketing', mounts: ['/', '/premium'], routes: [{ path: '/', layout: 'public', page: 'home' }, { path: '/premium', layout: 'public', page: 'premium' }] };

function problemsOf(value: unknown, remote: Parameters<typeof parseRouteTable>[1] = 'billing'): string[] {
  try {
    parseRouteTable(value, remote);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(RouteTableError);
    return (error as RouteTableError).problems;
  }
}

describe('parseRouteTable', () => {
  it('accepts well-formed tables, nested routes and index redirects included', () => {
    expect(parseRouteTable(structuredClone(billing), 'billing')).toEqual(billing);
    expect(parseRouteTable(structuredClone(dashboard), 'dashboard')).toEqual(dashboard);
    expect(parseRouteTable(structuredClone(marketing), 'marketing')).toEqual(marketing);
  });

  it.each([
    ['not an object', 'x', /not a JSON object/],
    ['another remote', { ...billing, remote: 'staff' }, /"remote" must be "billing"/],
    ['another schema', { ...billing, schema: 2 }, /"schema" must be 1/],
    ['no mounts', { ...billing, mounts: [] }, /"mounts" must list/],
    ['a mount with a parameter', { ...billing, mounts: ['/billing/:x'] }, /literal absolute path/],
    ['a mount over a shell address', { ...billing, mounts: ['/billing', '/login'] }, /overlaps the shell's own address \/login/],
    ['overlapping mounts', { ...billing, mounts: ['/billing', '/billing/x', '/premium-purchase'] }, /mounts "\/billing" and "\/billing\/x" overlap/],
    ['a route outside the mounts', { ...billing, routes: [{ path: '/dashboard', layout: 'login', page: 'x' }] }, /outside this remote's mounts/],
    ['a relative top-level path', { ...billing, routes: [{ path: 'billing', layout: 'login', page: 'x' }] }, /absolute path/],
    ['an unknown layout', { ...billing, routes: [{ path: '/billing', layout: 'sideways', page: 'x' }] }, /"layout" must be one of/],
    ['an unknown field', { ...billing, routes: [{ path: '/billing', layout: 'login', page: 'x', loader: 'y' }] }, /unknown field "loader"/],
    ['a leaf without a page', { ...billing, routes: [{ path: '/billing', layout: 'login' }] }, /needs a "page"/],
    ['an unknown permission', { ...billing, routes: [{ path: '/billing', layout: 'login', page: 'x', permission: 'ROOT' }] }, /unknown permission/],
    ['a duplicate path', { ...billing, routes: [billing.routes[1], billing.routes[1]] }, /declared twice/],
    ['a child with a layout', { ...dashboard, remote: 'billing', mounts: ['/billing'], routes: [{ path: '/billing', layout: 'login', children: [{ path: 'x', page: 'x', layout: 'public' }] }] }, /takes its parent's layout/],
    ['a path with a dot-dot', { ...billing, routes: [{ path: '/billing/../admin', layout: 'login', page: 'x' }] }, /absolute path/],
    ['an index route with both', { ...billing, routes: [{ path: '/billing', layout: 'login', children: [{ index: true, page: 'x', redirect: 'y' }] }] }, /a page or a redirect/],
  ])('refuses %s, naming the problem', (_what, value, problem) => {
    const problems = problemsOf(value);
    expect(problems.join('; ')).toMatch(problem);
  });
});

describe('leafPaths and matchesPattern', () => {
  it('lists every page path, an index child at its parent path', () => {
    expect(leafPaths(dashboard).map((l) => l.path)).toEqual(['/dashboard', '/dashboard/:server', '/dashboard/:server/configs']);
    expect(matchesPattern('/billing/:user/paddle/:id', '/billing/1/paddle/2')).toBe(true);
    expect(matchesPattern('/billing/:user/paddle/:id', '/billing/1/paddle')).toBe(false);
    expect(matchesPattern('/billing/:user/paddle/:id', '/billing/1/fastspring/2')).toBe(false);
  });
});

describe('composeRouteTables and isPagePath', () => {
  it('puts the tables together and knows which addresses are pages', () => {
    const site = composeRouteTables({ marketing, billing, dashboard });
    expect(site.problems).toEqual([]);
    for (const page of ['/', '/premium', '/premium/', '/billing', '/billing/7/paddle/9', '/dashboard/1/configs', '/dashboard/1', '/login', '/subscriptions/7']) {
      expect(isPagePath(site, page), page).toBe(true);
    }
    for (const missing of ['/nope', '/premium/extra', '/billing/7/paddle', '/dashboard/1/configs/x', '/index.html', '/premium-purchase']) {
      expect(isPagePath(site, missing), missing).toBe(missing === '/premium-purchase');
    }
  });

  it('a malformed table is refused whole; its mounts stay pages (they say the remote is unavailable)', () => {
    const site = composeRouteTables({ marketing, billing: { ...billing, routes: 'nope' } });
    expect(site.tables.billing).toBeUndefined();
    expect(site.problems).toEqual([{ remote: 'billing', message: expect.stringMatching(/route table of billing is not valid/), mounts: ['/billing', '/premium-purchase'] }]);
    expect(isPagePath(site, '/billing/anything')).toBe(true);
    expect(isPagePath(site, '/premium')).toBe(true);
  });

  it('a mount two remotes claim belongs to neither; the rest of each table is kept', () => {
    const hijack: RouteTable = { ...billing, mounts: [...billing.mounts, '/dashboard'], routes: [...billing.routes, { path: '/dashboard', layout: 'login', page: 'x' }] };
    const site = composeRouteTables({ billing: hijack, dashboard });
    expect(site.problems.map((p) => [p.remote, p.mounts])).toEqual([
      ['billing', ['/dashboard']],
      ['dashboard', ['/dashboard']],
    ]);
    expect(site.tables.billing?.mounts).toEqual(['/billing', '/premium-purchase']);
    expect(site.tables.dashboard).toBeUndefined();
  });
});

describe('page meta from the tables', () => {
  it('titles, describes and marks pages indexable; sitemap and robots follow the guards', async () => {
    const { pageMeta, sitemapXml, robotsTxt, withHeadTags, headTags } = await import('./page-meta');
    const site = composeRouteTables({ marketing: { ...marketing, routes: [marketing.routes[0]!, { ...marketing.routes[1]!, title: 'Premium', description: 'More panels.' }] }, billing, dashboard });
    expect(pageMeta(site, '/premium/', 'Tickety')).toEqual({ path: '/premium', title: 'Tickety - Premium', description: 'More panels.', indexable: true });
    expect(pageMeta(site, '/', 'Tickety')).toMatchObject({ title: 'Tickety - The #1 Discord support bot', indexable: true });
    expect(pageMeta(site, '/billing', 'Tickety')?.indexable).toBe(false);
    expect(pageMeta(site, '/billing/1/paddle/2', 'Tickety')).toBeNull();
    expect(sitemapXml(site, 'https://t.gg')).toContain('<loc>https://t.gg/premium-purchase</loc>');
    expect(sitemapXml(site, 'https://t.gg')).not.toContain('/billing');
    const robots = robotsTxt(site, 'https://t.gg');
    // /billing covers /billing/:user/... by prefix: listed once.
    expect(robots.match(/^Disallow: \/billing.*$/gm)).toEqual(['Disallow: /billing']);
    expect(robots).toContain('Disallow: /dashboard\n');
    expect(robots).not.toMatch(/Disallow: \/premium/);
    const page = withHeadTags('<head><meta name="description" content="x" /><title>old</title></head>', headTags(pageMeta(site, '/premium', 'Tickety')!, { origin: 'https://t.gg', productName: 'Tickety' }));
    expect(page).not.toContain('content="x"');
    expect(page.match(/<title>/g)).toHaveLength(1);
  });
});

describe('site pages (prerendered HTML)', () => {
  it('names the open pages and their owners, and takes only plain stylesheet names from a manifest', async () => {
    const { openPagePaths, pageOwner, manifestStylesheets } = await import('./site-pages');
    const site = composeRouteTables({ billing, dashboard, marketing });
    expect(openPagePaths(site)).toEqual(['/', '/premium', '/premium-purchase']);
    expect(pageOwner(site, '/premium-purchase/')).toBe('billing');
    // A page named exactly (a pattern's address is not one page).
    expect(pageOwner(site, '/billing')).toBe('billing');
    expect(pageOwner(site, '/billing/1/paddle/2')).toBeNull();
    expect(pageOwner(site, '/nope')).toBeNull();
    const manifest = { exposes: [{ name: 'routes', path: './routes', assets: { css: { sync: ['a.1234.css', '../x.css', '/abs.css', 'b.js', 42] } } }] };
    expect(manifestStylesheets(manifest, 'https://cdn.t.gg/remotes/billing/abc/mf-manifest.json')).toEqual(['https://cdn.t.gg/remotes/billing/abc/a.1234.css']);
    expect(manifestStylesheets(null, '/x/mf-manifest.json')).toEqual([]);
  });

  it('marks the root with the address the page was rendered for, escaped, and the page stylesheets after the shell\'s', async () => {
    const { withPrerenderedRoot } = await import('./site-pages');
    const shell = '<head><script>b()</script><link href="/m.css" rel="stylesheet"></head><body><div id="root"><i></i></div><noscript>x</noscript></body>';
    const page = { body: '<h1>Hi</h1>', head: '<link rel="stylesheet" href="/p.css" />' };
    expect(withPrerenderedRoot(shell, page, { path: '/premium/' })).toBe(
      '<head><script>b()</script><link href="/m.css" rel="stylesheet"><link rel="stylesheet" href="/p.css" /></head><body><div id="root" data-prerendered="/premium"><h1>Hi</h1></div><noscript>x</noscript></body>',
    );
    expect(withPrerenderedRoot(shell, page, { path: '/a"b', startNow: true })).toContain('<div id="root" data-prerendered="/a&quot;b" data-start="">');
    // The notices a visitor would read: none is an empty list, not an absent one (absent: unknown).
    expect(withPrerenderedRoot(shell, page, { path: '/', notices: ['7:2', '9:1'] })).toContain('<div id="root" data-prerendered="/" data-notices="7:2 9:1">');
    expect(withPrerenderedRoot(shell, page, { path: '/', notices: [] })).toContain('<div id="root" data-prerendered="/" data-notices="">');
  });
});

describe('sidebar icons', () => {
  it('are one of the contract\'s set (the shell draws them)', () => {
    const table = structuredClone(dashboard) as unknown as { routes: Array<{ children?: Array<{ sidebar?: { icon: string } }> }> };
    table.routes[1]!.children![1]!.sidebar!.icon = 'rocket';
    expect(problemsOf(table, 'dashboard').join('; ')).toMatch(/sidebar icon "rocket" is not one of panels, statistics/);
  });
});

describe('server page areas', () => {
  it('a server page may name its dashboard area; another name is refused', () => {
    const table = structuredClone(dashboard) as unknown as { routes: Array<{ children?: Array<{ area?: string }> }> };
    table.routes[1]!.children![1]!.area = 'panels';
    expect(problemsOf(table, 'dashboard')).toEqual([]);
    table.routes[1]!.children![1]!.area = 'automation';
    expect(problemsOf(table, 'dashboard').join('; ')).toMatch(/area "automation" is not one of panels, tickets, statistics, logs, configs, premium/);
  });
});
