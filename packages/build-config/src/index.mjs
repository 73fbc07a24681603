// @ts-check
/**
 * The one place that knows how a Tickety front end is built: rspack + Module Federation.
 * Every app's rspack.config.mjs is a call to `defineHost` or `defineRemote`, so shared singletons,
 * loaders, ports and output rules can't drift apart between apps.
 */

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack } from '@rspack/core';
import { ReactRefreshRspackPlugin as ReactRefreshPlugin } from '@rspack/plugin-react-refresh';
import { BootScriptPlugin } from './boot-script.mjs';
import { CATALOG_FILE } from './catalog.mjs';
import { FederationRuntimeEsm } from './federation-runtime-esm.mjs';
import { PreloadStartupChunks } from './preload-startup.mjs';
import { PrerenderPlugin } from './prerender.mjs';
import { RouteTablePlugin } from './route-table.mjs';
import { remoteScopeClass, scopeUtilities } from './scope-css.mjs';

export { remoteScopeClass, scopeUtilities };

/** Loaders and PostCSS plugins resolve from this package, so apps don't each depend on them. */
const own = createRequire(import.meta.url);

/** Dev-server ports. The all-in-one server (npm start) serves everything on 3000 instead. */
export const PORTS = Object.freeze({ api: 3000, shell: 4000, marketing: 4001, billing: 4002, dashboard: 4003, staff: 4004 });

/**
 * Packages that must exist once at run time. MF matches exact request keys, or a key ending in '/'
 * for subpaths (react/jsx-runtime, react-dom/client, @reduxjs/toolkit/query/react).
 */
const SINGLETONS = [
  'react',
  'react/',
  'react-dom',
  'react-dom/',
  // The platform: remotes reach the router, the store (react-redux, Redux Toolkit) and the request
  // client only through @tickety/shared, which the shell provides. So react-router, react-redux,
  // @reduxjs/toolkit and redux are bundled once, in the shell, tree-shaken, instead of being shared
  // whole (MF never tree-shakes a shared module: react-router alone is ~60 KiB gzip shared, ~20
  // tree-shaken). biome's noRestrictedImports keeps remotes from importing them directly, and
  // bench/singletons.mjs checks that one copy of each is downloaded.
  '@tickety/shared',
  '@tickety/ui',
];

/** Finds an installed package's package.json from an app folder, even when its exports hide it. */
function readPackageJson(appDir, pkg) {
  const req = createRequire(join(appDir, 'package.json'));
  let dir;
  try {
    dir = dirname(req.resolve(`${pkg}/package.json`));
  } catch {
    dir = dirname(req.resolve(pkg));
    while (!existsSync(join(dir, 'package.json')) || JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== pkg) {
      const up = dirname(dir);
      if (up === dir) throw new Error(`build-config: cannot find package.json of ${pkg} from ${appDir}`);
      dir = up;
    }
  }
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/**
 * The shared-module table for an app. Versions are read from the installed packages, because
 * `workspace:*` is not semver (docs/behaviour.md#module-federation-rules).
 * @param {string} appDir
 */
export function sharedSingletons(appDir) {
  /** @type {Record<string, object>} */
  const shared = {};
  for (const key of SINGLETONS) {
    const pkg = key.endsWith('/') ? key.slice(0, -1) : key;
    const { version } = readPackageJson(appDir, pkg);
    shared[key] = { singleton: true, requiredVersion: `^${version}`, version, strictVersion: false };
  }
  return shared;
}

/** @param {{ appDir: string, mode: 'development'|'production', cssScope?: string }} o */
function baseConfig({ appDir, mode, cssScope }) {
  const postcssPlugins = [own('@tailwindcss/postcss'), ...(cssScope ? [scopeUtilities({ scope: cssScope })] : [])];
  const dev = mode === 'development';
  return {
    mode,
    context: appDir,
    entry: { main: './src/index.ts' },
    devtool: dev ? 'eval-cheap-module-source-map' : 'source-map',
    resolve: { extensions: ['.tsx', '.ts', '.jsx', '.js', '.mjs', '.json'] },
    module: {
      rules: [
        {
          test: /\.[cm]?[jt]sx?$/,
          exclude: /node_modules/,
          loader: 'builtin:swc-loader',
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              transform: { react: { runtime: 'automatic', development: dev, refresh: dev } },
              target: 'es2022',
            },
          },
          type: 'javascript/auto',
        },
        { test: /\.css$/, use: [{ loader: own.resolve('postcss-loader'), options: { postcssOptions: { plugins: postcssPlugins } } }], type: 'css/auto' },
        // Message catalogues, compiled (catalog.mjs); each locale is its own chunk, loaded on demand.
        { test: CATALOG_FILE, type: 'json', loader: own.resolve('./catalog-loader.cjs') },
        { test: /\.md$/, type: 'asset/source' },
        { test: /\.(png|svg|jpe?g|webp|woff2?)$/, type: 'asset' },
      ],
    },
    // The federation runtime as ES modules, tree-shaken (federation-runtime-esm.mjs).
    plugins: [new FederationRuntimeEsm()],
    optimization: { minimize: !dev },
    performance: { hints: false },
    experiments: { css: true },
    stats: 'errors-warnings',
  };
}

function devServer(port) {
  return {
    host: 'localhost',
    port,
    hot: true,
    historyApiFallback: true,
    headers: { 'Access-Control-Allow-Origin': '*' },
  };
}

/**
 * A remote: exposes exactly `./routes` (typed by the contract in @tickety/shared), publicPath auto,
 * a manifest for the shell, and a standalone dev harness (src/dev/index.html) when served alone.
 * @param {{ name: 'marketing'|'billing'|'dashboard'|'staff', appDir: string, mode?: 'development'|'production' }} o
 */
export function defineRemote({ name, appDir, mode = process.env.NODE_ENV === 'production' ? 'production' : 'development' }) {
  const dev = mode === 'development';
  const base = baseConfig({ appDir, mode, cssScope: remoteScopeClass(name) });
  return {
    ...base,
    // The `main` entry is the standalone development harness (src/dev): production builds ship only
    // what the shell loads (remoteEntry.js, ./routes and its chunks).
    entry: dev ? base.entry : {},
    name,
    // A page is one chunk with the code it shares with other pages (not split into chunks of that
    // code): a first visit to a page is one response instead of three or four.
    optimization: { ...base.optimization, splitChunks: dev ? undefined : false },
    output: {
      path: join(appDir, 'dist'),
      publicPath: 'auto',
      uniqueName: `tickety_${name}`,
      filename: dev ? '[name].js' : '[name].[contenthash:8].js',
      chunkFilename: dev ? '[name].js' : '[name].[contenthash:8].js',
      cssFilename: '[name].[contenthash:8].css',
      clean: true,
    },
    plugins: [
      ...base.plugins,
      new ModuleFederationPlugin({
        name,
        filename: 'remoteEntry.js',
        exposes: { './routes': './src/routes.tsx' },
        shared: sharedSingletons(appDir),
        manifest: true,
        dts: false,
        // In production a remote runs on the shell's Module Federation runtime instead of shipping
        // its own copy in remoteEntry.js (about 30 KiB gzip per remote). The standalone dev harness
        // (development builds) keeps its own.
        ...(dev ? {} : { experiments: { externalRuntime: true, optimization: { target: 'web' } } }),
      }),
      dev && new rspack.HtmlRspackPlugin({ template: join(appDir, 'src/dev/index.html'), chunks: ['main'], filename: 'dev.html' }),
      // routes.json beside mf-manifest.json: the pages this remote owns, as data (config.json carries it).
      new RouteTablePlugin({ appDir, name }),
      // dist/prerender.mjs: its public pages rendered by the server (first paint without JavaScript).
      !dev && new PrerenderPlugin({ appDir }),
      dev && new ReactRefreshPlugin(),
    ].filter(Boolean),
    devServer: { ...devServer(PORTS[name]), historyApiFallback: { index: '/dev.html' } },
  };
}

const STARTUP_LIBRARIES = [
  /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-redux|use-sync-external-store|@reduxjs[\\/]toolkit|redux|redux-thunk|reselect|immer|@standard-schema[\\/]utils|@lingui[\\/]core|@lingui[\\/]message-utils)[\\/]/,
  // the platform packages' code and the shared English messages it always carries (not the other
  // languages' catalogues, which load on demand)
  /[\\/]packages[\\/](shared|ui|api-contract)[\\/]src[\\/].*\.tsx?$/,
  /[\\/]packages[\\/]shared[\\/]src[\\/]locales[\\/]en\.json$/,
];

/**
 * The host: registers remotes at run time from config.json (none at build time), loaded-first
 * sharing so one remote down never breaks the shell, publicPath '/' so deep links load chunks.
 * @param {{ appDir: string, mode?: 'development'|'production', runtimePlugins?: string[] }} o
 */
export function defineHost({ appDir, mode = process.env.NODE_ENV === 'production' ? 'production' : 'development', runtimePlugins = [] }) {
  const dev = mode === 'development';
  const base = baseConfig({ appDir, mode });
  return {
    ...base,
    name: 'shell',
    output: {
      path: join(appDir, 'dist'),
      publicPath: '/',
      uniqueName: 'tickety_shell',
      filename: dev ? '[name].js' : 'assets/[name].[contenthash:8].js',
      chunkFilename: dev ? '[name].js' : 'assets/[name].[contenthash:8].js',
      cssFilename: 'assets/[name].[contenthash:8].css',
      clean: true,
    },
    // The libraries every page starts with are one chunk: React, its JSX runtime, React DOM and its
    // client (four shared modules, so four chunks by default), React Router, Redux Toolkit and their
    // helpers, lingui, @tickety/shared and @tickety/ui. One response is fewer bytes on the wire than nine.
    optimization: {
      ...base.optimization,
      splitChunks: dev ? undefined : { cacheGroups: { libraries: { test: (module) => STARTUP_LIBRARIES.some((pattern) => pattern.test(module.resource ?? '')), name: 'libraries', chunks: 'async', enforce: true } } },
    },
    plugins: [
      ...base.plugins,
      new ModuleFederationPlugin({
        name: 'shell',
        remotes: {},
        shared: sharedSingletons(appDir),
        shareStrategy: 'loaded-first',
        runtimePlugins,
        dts: false,
        // The runtime the remotes' production entries use (see defineRemote).
        experiments: { provideExternalRuntime: true, optimization: { target: 'web' } },
      }),
      new rspack.HtmlRspackPlugin({ template: join(appDir, 'src/index.html'), chunks: ['main'] }),
      !dev &&
        new PreloadStartupChunks({
          chunkGroups: ['bootstrap'],
          modules: [/react-dom-client\.production/, /[\\/]react-router[\\/]dist[\\/]/, /[\\/]@reduxjs[\\/]toolkit[\\/]dist[\\/]/],
        }),
      // index.html's scripts become one inline boot script (src/boot/boot.ts): the scheme before the
      // first paint, and the app started at once, or on a prerendered page when the visitor reaches for it.
      existsSync(join(appDir, 'src/boot/boot.ts')) && new BootScriptPlugin({ entry: join(appDir, 'src/boot/boot.ts') }),
      new rspack.CopyRspackPlugin({ patterns: [{ from: join(appDir, 'public'), noErrorOnMissing: true }] }),
      // dist/prerender.mjs: the public layouts rendered by the server around a remote's prerendered page.
      !dev && new PrerenderPlugin({ appDir }),
      dev && new ReactRefreshPlugin(),
    ].filter(Boolean),
    // The shell's dev server gets config.json, and the deployed remotes it points at, from the API
    // (run it with DASHBOARD_ORIGINS=http://localhost:4000, and REMOTE_<NAME>_URL=http://localhost:400x/mf-manifest.json
    // for remotes served by their own dev servers).
    devServer: { ...devServer(PORTS.shell), proxy: [{ context: ['/config.json', '/remotes'], target: `http://localhost:${PORTS.api}` }] },
  };
}
