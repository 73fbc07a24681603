#!/usr/bin/env node
// Deploys one front end into a site folder, as a content-hashed version that is never overwritten,
// and points the site's config.json (the one composition file) at it. The commands are in USAGE
// below (`--help`); what they do and the site folder's layout: docs/operations.md, "Deploying the
// front ends" and "The site folder".
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { REMOTE_IDS } from '../packages/api-contract/src/remote-ids.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_SITE = join(ROOT, '.data', 'site');
/** The remotes: the contract's one list (packages/api-contract/src/remote-ids.mjs). */
export const REMOTES = [...REMOTE_IDS];
export const APPS = ['shell', ...REMOTES];
const VERSION = /^[0-9a-f]{12}$/;
/** Names a shell build may not contain at its top level (the site's own files). */
const RESERVED = ['config.json', 'deployments.json', 'pages.json', '404.html', 'app.html', 'sitemap.xml', 'robots.txt', 'shell', 'remotes'];

/** A refusal: printed as it is, exit code 1, nothing changed. */
export class DeployError extends Error {}

const print = (line) => console.log(line);

// ---------------------------------------------------------------------------------------------
// Files

/** Every regular file under `dir`, as sorted relative `a/b.js` paths. */
function listFiles(dir, base = dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listFiles(path, base, out);
    else if (entry.isFile()) out.push(relative(base, path).split(sep).join('/'));
    else throw new DeployError(`${path}: not a regular file or folder (links are not deployed)`);
  }
  return out.sort();
}

/** The version of a build: sha256 over its sorted relative paths and contents, first 12 hex digits. */
export function hashDir(dir) {
  const hash = createHash('sha256');
  for (const rel of listFiles(dir)) {
    const data = readFileSync(join(dir, rel));
    hash.update(`${rel}\0${data.length}\0`);
    hash.update(data);
  }
  return hash.digest('hex').slice(0, 12);
}

function sameContent(built, live) {
  return existsSync(live) && statSync(built).size === statSync(live).size && readFileSync(built).equals(readFileSync(live));
}

/** CSP sources of a page's inline scripts (the shell's boot script); the API sends the same (static-site.ts). */
function inlineScriptHashes(html) {
  return [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)]
    .filter((m) => !/\ssrc\s*=/i.test(m[1] ?? '') && m[2].length > 0)
    .map((m) => `'sha256-${createHash('sha256').update(m[2], 'utf8').digest('base64')}'`);
}

/** Writes through a temporary file and a rename: readers see the old file or the new one. */
function writeAtomic(file, data) {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

function copyAtomic(from, to) {
  writeAtomic(to, readFileSync(from));
}

function readJson(file, fallback) {
  if (!existsSync(file)) return fallback;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new DeployError(`${file} is not valid JSON (${error.message}): fix or remove it first.`);
  }
}

function writeJson(file, value) {
  writeAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

const isRecord = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One deploy at a time per site: `<site>/.deploy.lock` holds the owner's pid. */
function withLock(site, fn) {
  mkdirSync(site, { recursive: true });
  const lock = join(site, '.deploy.lock');
  const take = () => writeFileSync(lock, String(process.pid), { flag: 'wx' });
  try {
    take();
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
    const pid = Number(readFileSync(lock, 'utf8').trim());
    let alive = false;
    try {
      alive = Number.isInteger(pid) && pid > 0 && process.kill(pid, 0);
    } catch (probeError) {
      alive = probeError.code === 'EPERM';
    }
    if (alive) throw new DeployError(`Another deploy (pid ${pid}) is running on ${site}; wait for it (or remove ${lock} if it is gone).`);
    unlinkSync(lock);
    take();
  }
  const release = () => rmSync(lock, { force: true });
  try {
    const result = fn();
    if (result instanceof Promise) return result.finally(release);
    release();
    return result;
  } catch (error) {
    release();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// The site

function sitePaths(site) {
  return {
    config: join(site, 'config.json'),
    history: join(site, 'deployments.json'),
    versionDir: (app, version) => (app === 'shell' ? join(site, 'shell', version) : join(site, 'remotes', app, version)),
    versionsDir: (app) => (app === 'shell' ? join(site, 'shell') : join(site, 'remotes', app)),
  };
}

function readConfig(site) {
  const cfg = readJson(sitePaths(site).config, {});
  if (!isRecord(cfg)) throw new DeployError(`${sitePaths(site).config} is not a JSON object: fix or remove it first.`);
  if (cfg.remotes !== undefined && !isRecord(cfg.remotes)) throw new DeployError(`${sitePaths(site).config}: "remotes" is not an object: fix it first.`);
  return cfg;
}

function readHistory(site) {
  const history = readJson(sitePaths(site).history, []);
  if (!Array.isArray(history)) throw new DeployError(`${sitePaths(site).history} is not a JSON list: fix or remove it first.`);
  return history;
}

function liveVersion(cfg, app) {
  const version = app === 'shell' ? cfg.shell?.version : cfg.remotes?.[app]?.version;
  return typeof version === 'string' ? version : null;
}

/** The versions of an app in the site, oldest first (by first deploy, else by folder time). */
export function versionsOf(site, app, history = readHistory(site)) {
  const dir = sitePaths(site).versionsDir(app);
  if (!existsSync(dir)) return [];
  const found = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && VERSION.test(entry.name))
    .map((entry) => {
      const first = history.find((h) => h.app === app && h.version === entry.name && h.action !== 'rollback');
      return { version: entry.name, deployedAt: first?.at ?? statSync(join(dir, entry.name)).mtime.toISOString() };
    });
  return found.sort((a, b) => a.deployedAt.localeCompare(b.deployedAt) || a.version.localeCompare(b.version));
}

/** config.json with `remotes` in the usual order, other fields kept. */
function withRemote(cfg, app, entry) {
  const remotes = { ...(cfg.remotes ?? {}), [app]: entry };
  const ordered = {};
  for (const name of [...REMOTES, ...Object.keys(remotes)]) if (remotes[name] !== undefined && !(name in ordered)) ordered[name] = remotes[name];
  return { ...cfg, remotes: ordered };
}

function manifestUrl(baseUrl, app, version) {
  return `${baseUrl}/remotes/${app}/${version}/mf-manifest.json`;
}

function record(site, { app, version, previous, action }) {
  const history = readHistory(site);
  history.push({ app, version, at: new Date().toISOString(), previous, action });
  writeJson(sitePaths(site).history, history);
}

// ---------------------------------------------------------------------------------------------
// Route tables and pages (the contract's own functions: packages/api-contract/src, via tsx)

let contractModule;
async function routeContract() {
  if (contractModule) return contractModule;
  // tsx's ESM entry (require.resolve would give its CommonJS one), from a package that depends on it.
  let api;
  for (const dir of ['packages/build-config', 'apps/api']) {
    try {
      const pkgFile = createRequire(join(ROOT, dir, 'package.json')).resolve('tsx/package.json');
      const entry = JSON.parse(readFileSync(pkgFile, 'utf8')).exports['./esm/api'].import;
      api = join(dirname(pkgFile), typeof entry === 'string' ? entry : entry.default);
      break;
    } catch {
      // next
    }
  }
  if (!api) throw new DeployError('tsx is not installed (it loads the route-table checks): run `node scripts/pnpm.mjs install` first.');
  const { tsImport } = await import(pathToFileURL(api).href);
  contractModule = await tsImport(pathToFileURL(join(ROOT, 'packages/api-contract/src/index.ts')).href, import.meta.url);
  return contractModule;
}

/**
 * Checks a remote's table alone and against the other remotes live in config.json: refused when
 * the table is malformed or the composition reports a problem that it causes.
 */
async function checkRoutes(cfg, app, raw, where) {
  const contract = await routeContract();
  let table;
  try {
    table = contract.parseRouteTable(raw, app);
  } catch (error) {
    throw new DeployError(`${app}: ${where} is refused: ${error.message}`);
  }
  const current = {};
  for (const [name, entry] of Object.entries(cfg.remotes ?? {})) if (REMOTES.includes(name) && isRecord(entry)) current[name] = entry.routes;
  // A mount belongs to one remote: name the one this table would share.
  const overlaps = (a, b) => a === b || (a !== '/' && b !== '/' && (contract.insideMount(a, b) || contract.insideMount(b, a)));
  for (const [other, raw] of Object.entries(current)) {
    if (other === app || !isRecord(raw) || !Array.isArray(raw.mounts)) continue;
    for (const mount of table.mounts) {
      const theirs = raw.mounts.find((m) => typeof m === 'string' && overlaps(mount, m));
      if (theirs === undefined) continue;
      const error = new DeployError(
        `${app}: refused, nothing was deployed: its mount "${mount}" overlaps ${other}'s mount "${theirs}" (a mount belongs to one remote: move those pages, or deploy ${other} without that mount first).`,
      );
      error.collision = true;
      throw error;
    }
  }
  const before = contract.composeRouteTables(current).problems;
  const after = contract.composeRouteTables({ ...current, [app]: table }).problems;
  const caused = after.filter((p) => p.remote === app || !before.some((q) => q.remote === p.remote && q.message === p.message));
  if (caused.length > 0) {
    const error = new DeployError(`${app}: ${where} does not compose with the remotes in config.json, refused:\n  ${caused.map((p) => p.message).join('\n  ')}`);
    error.collision = true;
    throw error;
  }
  return table;
}

// ---------------------------------------------------------------------------------------------
// Deploy

function buildApp(app) {
  // Imported here so `list`, `rollback` and --no-build never need pnpm.
  return import('./pnpm.mjs').then(({ pnpm }) => {
    // A build restored from turbo's cache lands on top of what dist/ holds (the bundler's own clean
    // does not run): start empty, so the same build is always the same version.
    rmSync(join(ROOT, 'apps', app, 'dist'), { recursive: true, force: true });
    print(`${app}: building (turbo run build --filter=@tickety/${app})`);
    if (pnpm(['exec', 'turbo', 'run', 'build', `--filter=@tickety/${app}`, '--output-logs=errors-only']) !== 0) {
      throw new DeployError(`${app}: the build failed; nothing was deployed.`);
    }
  });
}

/** Files a browser fetches that compress: scripts, styles, manifests, vector images, fonts without their own compression. */
const COMPRESSIBLE = /\.(?:js|css|json|svg|wasm|txt|xml|ico|ttf|otf|webmanifest)$/;

/** Smaller files go out as they are (the server's own threshold, apps/api/src/lib/encoded-answer.ts). */
const COMPRESS_FROM = 1024;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside each compressible
 * file of a version about to go live (the whole of a remote's, the shell's `assets/`), each only when
 * smaller than the file: the server sends them by Accept-Encoding (apps/api static-site.ts), compressed
 * once here at the best ratio instead of on every request at a fast one. Source maps are left alone.
 */
function precompress(dir, app) {
  let written = 0;
  for (const rel of listFiles(dir)) {
    if (!COMPRESSIBLE.test(rel) || (app === 'shell' && !rel.startsWith('assets/'))) continue;
    const data = readFileSync(join(dir, rel));
    if (data.length < COMPRESS_FROM) continue;
    const brotli = brotliCompressSync(data, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
    });
    const gzip = gzipSync(data, { level: 9 });
    for (const [suffix, body] of [['.br', brotli], ['.gz', gzip]]) {
      if (body.length >= data.length) continue;
      writeFileSync(join(dir, rel + suffix), body);
      written++;
    }
  }
  return written;
}

/** Copies a build into its version folder through a temporary folder and a rename (never into an existing one). */
function copyVersion(dist, target, version, app) {
  mkdirSync(dirname(target), { recursive: true });
  const tmp = join(dirname(target), `.${version}.${process.pid}.tmp`);
  rmSync(tmp, { recursive: true, force: true });
  try {
    cpSync(dist, tmp, { recursive: true, errorOnExist: true, force: false });
    if (hashDir(tmp) !== version) throw new DeployError(`${dist} changed while it was being copied (a build running?); nothing was deployed.`);
    // After the check: the version is the build's own content; the compressed copies stand beside it.
    precompress(tmp, app);
    renameSync(tmp, target);
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}

/** The shell's files that would collide with different content already in the site (assets are never replaced). */
function shellConflicts(site, dir) {
  return listFiles(dir).filter((rel) => rel.startsWith('assets/') && !isSourceMap(rel) && existsSync(join(site, rel)) && !sameContent(join(dir, rel), join(site, rel)));
}

/**
 * A source map is named after its chunk, not after its own content: a change to a comment leaves the
 * chunk (and its name) the same and changes only the map. Maps never run, so the newest one is kept.
 */
const isSourceMap = (rel) => rel.endsWith('.map');

/** Makes a shell version live: its assets (added, never replaced), its other files, then index.html and 404.html. */
function publishShell(site, version) {
  const dir = sitePaths(site).versionDir('shell', version);
  let added = 0;
  for (const rel of listFiles(dir)) {
    if (rel === 'index.html') continue;
    const to = join(site, rel);
    if (rel.startsWith('assets/')) {
      if (!existsSync(to)) {
        copyAtomic(join(dir, rel), to);
        added++;
      } else if (isSourceMap(rel) && !sameContent(join(dir, rel), to)) copyAtomic(join(dir, rel), to);
    } else if (!sameContent(join(dir, rel), to)) copyAtomic(join(dir, rel), to);
  }
  // app.html: the shell page itself (what the all-in-one server answers with; a static host's
  // fallback). index.html and 404.html: the same until pages are written (publishPages).
  copyAtomic(join(dir, 'index.html'), join(site, 'app.html'));
  copyAtomic(join(dir, 'index.html'), join(site, 'index.html'));
  copyAtomic(join(dir, 'index.html'), join(site, '404.html'));
  return added;
}

/**
 * Deploys one app's build into the site, then writes the static host's pages again when the site has
 * them (publishPages; `publicUrl` starts them). Returns what it did.
 * @param {string} app
 * @param {{ site?: string, baseUrl?: string, build?: boolean, dist?: string, publicUrl?: string, pages?: boolean }} [options]
 */
export async function deploy(app, options = {}) {
  if (!APPS.includes(app)) throw new DeployError(`Unknown app "${app}": one of ${APPS.join(', ')}.`);
  const site = resolve(options.site ?? DEFAULT_SITE);
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  if (baseUrl && !/^(https?:\/\/[^\s/]+|\/[^\s]*)$/.test(baseUrl)) throw new DeployError(`--base-url must be an http(s) URL or a path starting with /, not "${baseUrl}".`);
  if (baseUrl && app === 'shell') throw new DeployError('--base-url is for remotes: the shell is served at the site root (its publicPath is /).');
  const dist = resolve(options.dist ?? join(ROOT, 'apps', app, 'dist'));
  if (options.build !== false && options.dist === undefined) await buildApp(app);
  if (!existsSync(dist)) throw new DeployError(`${app}: ${dist} does not exist: build it first (or leave out --no-build).`);

  // Everything is checked before anything is written.
  const files = listFiles(dist);
  if (app === 'shell') {
    if (!files.includes('index.html')) throw new DeployError(`shell: ${dist} has no index.html.`);
    const reserved = files.filter((f) => RESERVED.includes(f.split('/')[0]));
    if (reserved.length > 0) throw new DeployError(`shell: ${dist} holds names the site keeps for itself: ${reserved.slice(0, 5).join(', ')}.`);
  } else {
    for (const name of ['mf-manifest.json', 'routes.json']) {
      if (!files.includes(name)) throw new DeployError(`${app}: ${dist} has no ${name}${name === 'routes.json' ? ' (built with an older build-config?)' : ''}.`);
    }
  }
  const version = hashDir(dist);
  const paths = sitePaths(site);

  return withLock(site, async () => {
    const cfg = readConfig(site);
    readHistory(site);
    const previous = liveVersion(cfg, app);
    const target = paths.versionDir(app, version);
    let entry;
    if (app !== 'shell') {
      let raw;
      try {
        raw = JSON.parse(readFileSync(join(dist, 'routes.json'), 'utf8'));
      } catch (error) {
        throw new DeployError(`${app}: routes.json is not valid JSON (${error.message}).`);
      }
      const routes = await checkRoutes(cfg, app, raw, 'its routes.json');
      entry = { manifest: manifestUrl(baseUrl, app, version), version, routes };
    } else {
      const conflicts = shellConflicts(site, dist);
      if (conflicts.length > 0) throw new DeployError(`shell: files in ${join(site, 'assets')} differ from this build under the same name (assets are never replaced): ${conflicts.slice(0, 5).join(', ')}.`);
    }

    const copied = !existsSync(target);
    if (copied) {
      copyVersion(dist, target, version, app);
      print(`${app} ${version}: copied ${files.length} files to ${target}`);
    } else {
      print(`${app} ${version}: already in ${target} (same content), not copied`);
    }

    if (app === 'shell') {
      const live = previous === version && sameContent(join(target, 'index.html'), join(site, 'app.html'));
      if (live) {
        print(`shell ${version}: already live, nothing changed`);
        if (options.publicUrl && options.pages !== false) await publishPages(site, options);
        return { app, version, copied, changed: false, previous };
      }
      const added = publishShell(site, version);
      writeJson(paths.config, { ...cfg, shell: { version } });
      record(site, { app, version, previous, action: 'deploy' });
      print(`shell ${version}: live (index.html, 404.html; ${added} new files in assets/)${previous ? `, was ${previous}` : ''}`);
      const hashes = inlineScriptHashes(readFileSync(join(site, 'index.html'), 'utf8'));
      if (hashes.length > 0) print(`shell ${version}: a static host's CSP must allow its boot script: script-src 'self' ${hashes.join(' ')}`);
      if (options.pages !== false) await publishPages(site, options);
      return { app, version, copied, changed: true, previous };
    }

    if (JSON.stringify(cfg.remotes?.[app]) === JSON.stringify(entry)) {
      print(`${app} ${version}: already live, nothing changed`);
      if (options.publicUrl && options.pages !== false) await publishPages(site, options);
      return { app, version, copied, changed: false, previous };
    }
    writeJson(paths.config, withRemote(cfg, app, entry));
    record(site, { app, version, previous, action: 'deploy' });
    print(`${app} ${version}: live (config.json → ${entry.manifest})${previous ? `, was ${previous}` : ''}`);
    if (options.pages !== false) await publishPages(site, options);
    return { app, version, copied, changed: true, previous };
  });
}

/**
 * Deploys several apps, remotes first and the shell last. A remote refused because its table
 * collides with another remote's live one is tried again after the others (a mount moved from one
 * remote to another deploys in either order). Returns the failures (each app's last error).
 * @param {string[]} apps
 * @param {{ site?: string, baseUrl?: string, build?: boolean, dists?: Record<string, string>, publicUrl?: string }} [options]
 */
export async function deployAll(apps, options = {}) {
  const { dists = {}, ...common } = options;
  // Refused before anything is deployed (the shell is always served at the site root).
  if (common.baseUrl && apps.includes('shell')) throw new DeployError('--base-url is for remotes: deploy the shell on its own, without it (nothing was deployed).');
  const failures = new Map();
  const attempt = async (app, opts) => {
    try {
      await deploy(app, { ...opts, ...(dists[app] ? { dist: dists[app] } : {}) });
      failures.delete(app);
    } catch (error) {
      if (!(error instanceof DeployError)) throw error;
      failures.set(app, error);
    }
  };
  for (const app of [...REMOTES, 'shell'].filter((a) => apps.includes(a))) await attempt(app, { ...common, pages: false });
  const retry = [...failures].filter(([, error]) => error.collision).map(([app]) => app);
  if (retry.length > 0) print(`trying ${retry.join(', ')} again now that the others are deployed`);
  for (const app of retry) await attempt(app, { ...common, build: false, pages: false });
  // The static host's pages once, for what is live now.
  const site = resolve(common.site ?? DEFAULT_SITE);
  try {
    await withLock(site, () => publishPages(site, { publicUrl: common.publicUrl }));
  } catch (error) {
    if (!(error instanceof DeployError)) throw error;
    failures.set('pages', error);
  }
  return [...failures].map(([app, error]) => ({ app, error }));
}

// ---------------------------------------------------------------------------------------------
// Pages for a static host

/** A page path that can be a folder of the site: plain segments, none of the site's own names. */
function pageFile(path) {
  if (path === '/') return 'index.html';
  const segments = path.slice(1).split('/');
  // The site's own names, however they are written (a deploy machine's disk may ignore case).
  const first = segments[0].toLowerCase();
  if (segments.some((seg) => !/^[A-Za-z0-9][A-Za-z0-9._~-]*$/.test(seg)) || RESERVED.includes(first) || first === 'assets') return null;
  return `${segments.join('/')}/index.html`;
}

/**
 * Writes the site's public pages as HTML for a static host (what the all-in-one server renders per
 * request): `<path>/index.html` for each open page and index.html for `/`, 404.html (the 404 page,
 * for any address the host does not know), sitemap.xml and robots.txt, from the live versions'
 * renderers (their prerender.mjs) and the runtime settings in config.json. Pages a previous run wrote
 * that are gone from the composition are removed. `pages.json` remembers the public URL, so every
 * later deploy or rollback writes them again. Returns what it wrote, or null when it cannot.
 * @param {string} site
 * @param {{ publicUrl?: string }} [options]
 */
export async function publishPages(site, options = {}) {
  const paths = sitePaths(site);
  const state = readJson(join(site, 'pages.json'), {});
  const publicUrl = (options.publicUrl ?? state.publicUrl ?? '').replace(/\/+$/, '');
  if (!publicUrl) return null;
  if (!/^https?:\/\/[^\s/]+$/.test(publicUrl)) throw new DeployError(`--public-url must be the site's origin (https://host), not "${publicUrl}".`);
  const contract = await routeContract();
  const cfg = readConfig(site);
  const shellVersion = liveVersion(cfg, 'shell');
  if (shellVersion && !VERSION.test(shellVersion)) throw new DeployError(`pages: config.json's shell version "${shellVersion}" is not a version of this site: nothing written.`);
  if (!shellVersion || !existsSync(join(site, 'app.html'))) {
    print('pages: no shell is live yet: nothing written');
    return null;
  }
  const runtime = contract.RuntimeConfig.safeParse(cfg);
  if (!runtime.success) {
    const missing = [...new Set(runtime.error.issues.map((i) => i.path.join('.')))].join(', ');
    throw new DeployError(`pages: config.json lacks the runtime settings a static host's pages are rendered with (${missing}): add them (docs/operations.md, "A static host").`);
  }
  const config = runtime.data;
  const composition = contract.composeRouteTables(Object.fromEntries(Object.entries(config.remotes).map(([id, e]) => [id, e?.routes])));
  const load = async (file) => (existsSync(file) ? import(pathToFileURL(file).href) : null);
  let shell;
  try {
    shell = await load(join(paths.versionDir('shell', shellVersion), 'prerender.mjs'));
  } catch (error) {
    throw new DeployError(`pages: shell ${shellVersion}'s prerender.mjs cannot be loaded (${error.message}): nothing written.`);
  }
  if (!shell) throw new DeployError(`pages: shell ${shellVersion} has no prerender.mjs (built without it?): nothing written.`);
  // What is written is recorded before it is written: a run that stops half-way leaves no page
  // that a later run would not know to remove.
  const previous = Array.isArray(state.pages) ? state.pages.filter((f) => typeof f === 'string') : [];
  const planned = contract.openPagePaths(composition).map(pageFile).filter(Boolean);
  writeJson(join(site, 'pages.json'), { publicUrl, pages: [...new Set([...previous, ...planned])] });
  const shellHtml = readFileSync(join(site, 'app.html'), 'utf8');
  const page = (path, prerendered, notFound = false) =>
    contract.pageHtml({ shell: shellHtml, composition, path, page: prerendered, notFound, origin: publicUrl, productName: config.productName });

  const written = [];
  for (const path of contract.openPagePaths(composition)) {
    const file = pageFile(path);
    const remote = contract.pageOwner(composition, path);
    const entry = remote ? config.remotes[remote] : undefined;
    if (!file || !remote || !entry?.version || !VERSION.test(entry.version)) {
      print(`pages: ${path} skipped (not a plain address of a deployed version)`);
      continue;
    }
    const dir = paths.versionDir(remote, entry.version);
    let prerendered = null;
    try {
      const renderer = await load(join(dir, 'prerender.mjs'));
      prerendered = renderer
        ? contract.renderPage({ shell, remote: renderer, remoteId: remote, path, config, stylesheets: contract.manifestStylesheets(readJson(join(dir, 'mf-manifest.json'), null), entry.manifest) })
        : null;
    } catch (error) {
      print(`pages: ${path} could not be prerendered (${error.message}): written as the plain shell page`);
    }
    writeAtomic(join(site, file), page(path, prerendered));
    written.push(file);
  }
  writeAtomic(join(site, '404.html'), page(contract.ANY_ADDRESS, contract.renderNotFound(shell, config), true));
  writeAtomic(join(site, 'sitemap.xml'), contract.sitemapXml(composition, publicUrl));
  writeAtomic(join(site, 'robots.txt'), contract.robotsTxt(composition, publicUrl));
  // A page no longer in the composition must not stay reachable. `/`: back to the shell page.
  for (const file of previous) {
    if (written.includes(file)) continue;
    if (file === 'index.html') copyAtomic(join(site, 'app.html'), join(site, 'index.html'));
    else if (file.endsWith('/index.html') && pageFile(`/${file.slice(0, -'/index.html'.length)}`) === file) rmSync(join(site, file), { force: true });
  }
  writeJson(join(site, 'pages.json'), { publicUrl, pages: written });
  print(`pages: ${written.length} public pages, 404.html, sitemap.xml and robots.txt written for ${publicUrl}`);
  const hashes = inlineScriptHashes(shellHtml);
  if (hashes.length > 0) print(`pages: the host's CSP must allow the shell's boot script: script-src 'self' ${hashes.join(' ')}`);
  return { publicUrl, pages: written };
}

// ---------------------------------------------------------------------------------------------
// Rollback

/**
 * Points the site back at an earlier version of an app: the one live before the current version
 * was deployed (from deployments.json), or `version`. Refuses a version the site does not hold.
 * @param {string} app
 * @param {{ site?: string, version?: string }} [options]
 */
export async function rollback(app, options = {}) {
  if (!APPS.includes(app)) throw new DeployError(`Unknown app "${app}": one of ${APPS.join(', ')}.`);
  const site = resolve(options.site ?? DEFAULT_SITE);
  const paths = sitePaths(site);
  if (!existsSync(site)) throw new DeployError(`${site} does not exist: nothing to roll back.`);
  return withLock(site, async () => {
    const cfg = readConfig(site);
    const history = readHistory(site);
    const current = liveVersion(cfg, app);
    const known = versionsOf(site, app, history).map((v) => v.version);
    let version = options.version;
    if (version === undefined) {
      if (current === null) throw new DeployError(`${app} is not deployed in ${site}: nothing to roll back.`);
      const deployed = history.filter((h) => h.app === app && h.version === current && h.action !== 'rollback').at(-1);
      if (!deployed) throw new DeployError(`deployments.json does not say what ${app} ${current} replaced: name a version (${known.join(', ') || 'none'}).`);
      if (!deployed.previous) throw new DeployError(`${app} ${current} is the first version deployed: nothing earlier to roll back to.`);
      version = deployed.previous;
    }
    if (!VERSION.test(version) || !known.includes(version)) {
      throw new DeployError(`${app} has no version "${version}" in ${site}; versions: ${known.join(', ') || 'none'}.`);
    }
    const dir = paths.versionDir(app, version);
    if (version === current) {
      if (app !== 'shell' || sameContent(join(dir, 'index.html'), join(site, 'app.html'))) {
        print(`${app} ${version}: already live, nothing changed`);
        return { app, version, changed: false, previous: current };
      }
    }

    if (app === 'shell') {
      if (!existsSync(join(dir, 'index.html'))) throw new DeployError(`shell ${version}: ${dir} has no index.html.`);
      const conflicts = shellConflicts(site, dir);
      if (conflicts.length > 0) throw new DeployError(`shell ${version}: files in assets/ differ under the same name: ${conflicts.slice(0, 5).join(', ')}.`);
      publishShell(site, version);
      writeJson(paths.config, { ...cfg, shell: { version } });
    } else {
      let raw;
      try {
        raw = JSON.parse(readFileSync(join(dir, 'routes.json'), 'utf8'));
      } catch (error) {
        throw new DeployError(`${app} ${version}: ${join(dir, 'routes.json')} cannot be read (${error.message}).`);
      }
      if (!existsSync(join(dir, 'mf-manifest.json'))) throw new DeployError(`${app} ${version}: ${dir} has no mf-manifest.json.`);
      const routes = await checkRoutes(cfg, app, raw, `routes.json of ${version}`);
      // The same base URL as the version live now (site-relative when there is none).
      const live = cfg.remotes?.[app]?.manifest;
      const base = typeof live === 'string' && current && live.endsWith(`/remotes/${app}/${current}/mf-manifest.json`) ? live.slice(0, -`/remotes/${app}/${current}/mf-manifest.json`.length) : '';
      writeJson(paths.config, withRemote(cfg, app, { manifest: manifestUrl(base, app, version), version, routes }));
    }
    record(site, { app, version, previous: current, action: 'rollback' });
    print(`${app} ${version}: live again (rolled back${current ? ` from ${current}` : ''})`);
    await publishPages(site);
    return { app, version, changed: true, previous: current };
  });
}

// ---------------------------------------------------------------------------------------------
// List

/** What is live and which versions the site holds, per app. */
export function list(options = {}) {
  const site = resolve(options.site ?? DEFAULT_SITE);
  const cfg = existsSync(site) ? readConfig(site) : {};
  const history = existsSync(site) ? readHistory(site) : [];
  const apps = {};
  for (const app of APPS) {
    apps[app] = {
      live: liveVersion(cfg, app),
      ...(app === 'shell' ? {} : { manifest: cfg.remotes?.[app]?.manifest ?? null }),
      versions: versionsOf(site, app, history),
    };
  }
  return { site, apps };
}

function printList(result) {
  print(`site: ${result.site}${existsSync(result.site) ? '' : ' (does not exist yet: nothing is deployed there)'}`);
  for (const [app, info] of Object.entries(result.apps)) {
    print(`${app.padEnd(10)} live: ${info.live ?? '(not deployed)'}${info.manifest ? `  ${info.manifest}` : ''}`);
    for (const v of info.versions) print(`${' '.repeat(11)}${v.version === info.live ? '*' : ' '} ${v.version}  deployed ${v.deployedAt}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Command line

const USAGE = `Usage:
  node scripts/deploy.mjs <app>... [--site <dir>] [--base-url <url>] [--public-url <origin>] [--no-build] [--dist <dir>]
  node scripts/deploy.mjs rollback <app> [<version>] [--site <dir>]
  node scripts/deploy.mjs pages --public-url <origin> [--site <dir>]
  node scripts/deploy.mjs list [--site <dir>] [--json]
<app>: ${APPS.join(', ')} or all (the remotes, then the shell). Default site: ${DEFAULT_SITE}
  --base-url  where the site's remotes/ is served from, for a remote on another origin
              (manifest: <base-url>/remotes/<app>/<version>/mf-manifest.json; default: site-relative)
  --public-url  for a static host: the site's origin (https://host); the public pages, 404.html,
              sitemap.xml and robots.txt are written as files, and again on every later deploy
              or rollback of that site (\`pages\` writes them now)
  --no-build  deploy the existing apps/<app>/dist
  --dist      deploy this build folder instead of apps/<app>/dist (implies --no-build)`;

function parseArgs(argv) {
  const out = { positional: [], build: true, json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (name) => {
      if (arg.includes('=')) return arg.slice(arg.indexOf('=') + 1);
      const given = argv[++i];
      if (given === undefined) throw new DeployError(`${name} needs a value.\n${USAGE}`);
      return given;
    };
    if (arg === '--help' || arg === '-h') out.help = true;
    else if (arg === '--no-build') out.build = false;
    else if (arg === '--json') out.json = true;
    else if (arg === '--site' || arg.startsWith('--site=')) out.site = value('--site');
    else if (arg === '--base-url' || arg.startsWith('--base-url=')) out.baseUrl = value('--base-url');
    else if (arg === '--dist' || arg.startsWith('--dist=')) out.dist = value('--dist');
    else if (arg === '--public-url' || arg.startsWith('--public-url=')) out.publicUrl = value('--public-url');
    else if (arg.startsWith('-')) throw new DeployError(`Unknown option ${arg}.\n${USAGE}`);
    else out.positional.push(arg);
  }
  return out;
}

async function main(argv) {
  const args = parseArgs(argv);
  const [command, ...rest] = args.positional;
  if (args.help || command === undefined) {
    print(USAGE);
    return args.help ? 0 : 2;
  }
  if (command === 'list') {
    const result = list({ site: args.site });
    if (args.json) print(JSON.stringify(result, null, 2));
    else printList(result);
    return 0;
  }
  if (command === 'pages') {
    if (rest.length > 0) throw new DeployError(`pages takes no app.\n${USAGE}`);
    const site = resolve(args.site ?? DEFAULT_SITE);
    const done = await withLock(site, () => publishPages(site, { publicUrl: args.publicUrl }));
    if (!done) throw new DeployError('pages: name the site\'s origin with --public-url (nothing written).');
    return 0;
  }
  if (command === 'rollback') {
    if (rest.length < 1 || rest.length > 2) throw new DeployError(`rollback takes an app and, optionally, a version.\n${USAGE}`);
    await rollback(rest[0], { site: args.site, version: rest[1] });
    return 0;
  }
  const apps = (command === 'deploy' ? rest : args.positional).flatMap((a) => (a === 'all' ? [...REMOTES, 'shell'] : [a]));
  if (apps.length === 0) throw new DeployError(`Name an app to deploy.\n${USAGE}`);
  for (const app of apps) if (!APPS.includes(app)) throw new DeployError(`Unknown app "${app}": one of ${APPS.join(', ')} or all.`);
  if (args.dist && apps.length > 1) throw new DeployError('--dist deploys one app.');
  if (apps.length === 1) {
    await deploy(apps[0], { site: args.site, baseUrl: args.baseUrl, build: args.build, dist: args.dist, publicUrl: args.publicUrl });
    return 0;
  }
  const failures = await deployAll(apps, { site: args.site, baseUrl: args.baseUrl, build: args.build, publicUrl: args.publicUrl });
  for (const f of failures) console.error(`deploy: ${f.error.message}`);
  return failures.length > 0 ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      if (error instanceof DeployError) console.error(`deploy: ${error.message}`);
      else console.error(error);
      process.exit(1);
    },
  );
}
