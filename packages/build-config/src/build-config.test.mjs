import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postcss from 'postcss';
import { describe, expect, it } from 'vitest';
import { bootScript } from './boot-script.mjs';
import { defineHost, defineRemote, remoteScopeClass, scopeUtilities, sharedSingletons } from './index.mjs';
import { buildRouteTable } from './route-table.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

describe('scopeUtilities', () => {
  const run = (css) => postcss([scopeUtilities({ scope: 'tk-remote-billing' })]).process(css, { from: undefined }).css;

  it('scopes every utility rule, also inside media queries, and nothing outside the utilities layer', () => {
    const out = run(`
      @layer theme { :root { --x: 1 } }
      @layer base { *, ::before { margin: 0 } }
      @layer utilities {
        .flex { display: flex }
        .a, .b:hover { color: red }
        @media (width >= 64rem) { .lg\\:hidden { display: none } }
        .hover\\:x { &:hover { color: blue } }
        @keyframes spin { to { transform: rotate(360deg) } }
      }`);
    expect(out).toContain('.tk-remote-billing .flex');
    expect(out).toContain('.tk-remote-billing .a, .tk-remote-billing .b:hover');
    expect(out).toContain('.tk-remote-billing .lg\\:hidden');
    expect(out).toContain('.tk-remote-billing .hover\\:x');
    expect(out).toContain('&:hover');
    expect(out).not.toContain('.tk-remote-billing &');
    expect(out).toContain('to { transform');
    expect(out).not.toContain('.tk-remote-billing to');
    expect(out).toContain(':root { --x: 1 }');
    expect(out).toContain('*, ::before { margin: 0 }');
  });

  it('is idempotent', () => {
    const once = run('@layer utilities { .p-4 { padding: 1rem } }');
    expect(postcss([scopeUtilities({ scope: 'tk-remote-billing' })]).process(once, { from: undefined }).css).toBe(once);
  });

  it('names the scope after the remote', () => {
    expect(remoteScopeClass('staff')).toBe('tk-remote-staff');
  });
});

describe('Module Federation configs', () => {
  it('shares every singleton with an explicit version (workspace:* is not semver)', () => {
    const shared = sharedSingletons(join(repo, 'apps', 'shell'));
    for (const key of ['react', 'react/', 'react-dom', 'react-dom/', '@tickety/shared', '@tickety/ui']) {
      expect(shared[key], key).toMatchObject({ singleton: true });
      expect(shared[key].version, key).toMatch(/^\d+\.\d+\.\d+/);
      expect(shared[key].requiredVersion, key).toBe(`^${shared[key].version}`);
    }
    // The router and the store reach remotes through @tickety/shared (tree-shaken in the shell).
    for (const key of ['react-router', 'react-router-dom', 'react-redux', '@reduxjs/toolkit', 'redux']) expect(shared[key], key).toBeUndefined();
  });

  it('a remote exposes exactly ./routes, with publicPath auto and a manifest', () => {
    const config = defineRemote({ name: 'billing', appDir: join(repo, 'apps', 'billing'), mode: 'production' });
    const mf = config.plugins.find((p) => p?.constructor?.name === 'ModuleFederationPlugin');
    expect(mf._options.exposes).toEqual({ './routes': './src/routes.tsx' });
    expect(mf._options.manifest).toBe(true);
    expect(mf._options.dts).toBe(false);
    expect(config.output.publicPath).toBe('auto');
  });

  it('the host knows no remote at build time and shares loaded-first', () => {
    const config = defineHost({ appDir: join(repo, 'apps', 'shell'), mode: 'production' });
    const mf = config.plugins.find((p) => p?.constructor?.name === 'ModuleFederationPlugin');
    expect(mf._options.remotes).toEqual({});
    expect(mf._options.shareStrategy).toBe('loaded-first');
    expect(config.output.publicPath).toBe('/');
  });
});

describe('buildRouteTable (routes.json)', () => {
  const dashboardDir = join(repo, 'apps', 'dashboard');

  it("evaluates a remote's TypeScript table and emits it as checked JSON", async () => {
    const json = JSON.parse(await buildRouteTable({ appDir: dashboardDir, name: 'dashboard' }));
    expect(json).toMatchObject({ schema: 1, remote: 'dashboard', mounts: ['/dashboard', '/transcript', '/transcripts'] });
    expect(json.routes.map((r) => r.path)).toContain('/dashboard/:server');
  });

  it('fails with every problem listed for a table that is not valid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickety-route-table-'));
    try {
      const file = join(dir, 'route-table.ts');
      writeFileSync(
        file,
        "const table: { schema: number; remote: string; mounts: string[]; routes: unknown[] } = { schema: 1, remote: 'dashboard', mounts: ['/login'], routes: [{ path: '/elsewhere', layout: 'nope', page: 'x' }] };\nexport default table;\n",
      );
      await expect(buildRouteTable({ appDir: dashboardDir, name: 'dashboard', file })).rejects.toThrow(
        /overlaps the shell's own address \/login.*outside this remote's mounts.*"layout" must be one of/s,
      );
      await expect(buildRouteTable({ appDir: dashboardDir, name: 'billing', file })).rejects.toThrow(/"remote" must be "billing"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bootScript', () => {
  it("inlines the entry's boot() called with the app's URLs, one statement, never a closing script tag", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickety-boot-'));
    try {
      const entry = join(dir, 'boot.ts');
      writeFileSync(entry, 'export function boot(options: { scripts: string[]; preload: string[] }): void { (globalThis as any).__booted = options; }\n');
      const options = { scripts: ['/assets/main.1.js'], preload: ['/assets/a.2.js', '/x</script><b>.js'] };
      const code = await bootScript(entry, options);
      expect(code).not.toMatch(/<\/script/i);
      new Function(code)();
      expect(globalThis.__booted).toEqual(options);
    } finally {
      delete globalThis.__booted;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
