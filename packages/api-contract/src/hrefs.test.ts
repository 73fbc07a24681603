import { describe, expect, expectTypeOf, it } from 'vitest';
import { buildHref, hrefs, siteHref } from './hrefs';
import type { RouteTable } from './route-table';

const table = {
  schema: 1,
  remote: 'dashboard',
  mounts: ['/dashboard'],
  routes: [
    { path: '/dashboard', layout: 'login', page: 'list' },
    { path: '/dashboard/:server', layout: 'server', children: [{ path: 'logs-web', page: 'logs' }] },
  ],
} as const satisfies RouteTable;

describe('typed links', () => {
  const href = hrefs(table);
  it('builds a table path with its parameters, encoded, and a query', () => {
    expect(href('/dashboard/:server/logs-web', { server: '123456789012345678' })).toBe('/dashboard/123456789012345678/logs-web');
    expect(href('/dashboard')).toBe('/dashboard');
    expect(buildHref('/billing/:user', { user: 'a b/c' }, { plan: 'pro', x: undefined })).toBe('/billing/a%20b%2Fc?plan=pro');
    expect(siteHref('/premium-purchase', {}, { plan: 'premium' })).toBe('/premium-purchase?plan=premium');
  });
  it('refuses a missing parameter at run time and at compile time', () => {
    expect(() => buildHref('/dashboard/:server', {})).toThrow('needs its "server"');
    expect(() => buildHref('/dashboard/:server/premium', { server: '..' })).toThrow('cannot have ".."');
    expect(buildHref('/billing/:user', { user: '//evil.com?x#y' })).toBe('/billing/%2F%2Fevil.com%3Fx%23y');
    // @ts-expect-error a path the table does not declare
    expect(href('/dashboard/:server/nothing', { server: '1' })).toBe('/dashboard/1/nothing');
    // @ts-expect-error the parameter is missing
    expect(() => href('/dashboard/:server')).toThrow();
    expectTypeOf(href).parameter(0).toEqualTypeOf<'/dashboard' | '/dashboard/:server' | '/dashboard/:server/logs-web' | import('./hrefs').SitePath>();
  });
});
