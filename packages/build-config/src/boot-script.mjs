// @ts-check
/**
 * Replaces the shell's script tags in index.html (the entry, and the startup chunks that
 * PreloadStartupChunks preloads) with one small inline script, first in <head>: the app's boot
 * (`boot(options)` exported by `entry`, apps/shell/src/boot/boot.ts), called with those URLs. It sets
 * the colour scheme before the first paint and decides when the app starts (docs/architecture.md,
 * "Public pages arrive as HTML"). The server allows it by its hash in the page's CSP
 * (apps/api static-site), a static host the same way (`node scripts/deploy.mjs shell` prints it).
 */
import { dirname } from 'node:path';

/**
 * The boot script for these URLs: `entry`'s `boot` export, bundled and minified into one statement.
 * @param {string} entry
 * @param {{ scripts: string[], preload: string[] }} options
 */
export async function bootScript(entry, options) {
  const { build } = await import('esbuild');
  const out = await build({
    stdin: { contents: `import { boot } from ${JSON.stringify(entry)};\nboot(${JSON.stringify(options)});\n`, resolveDir: dirname(entry), loader: 'ts' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
  });
  const file = out.outputFiles?.[0];
  if (!file) throw new Error(`${entry}: esbuild produced nothing`);
  // Inline in HTML: never a closing tag inside.
  return file.text.trim().replace(/<\/(script)/gi, '<\\/$1');
}

export class BootScriptPlugin {
  /** @param {{ entry: string }} options */
  constructor(options) {
    this.options = options;
  }

  /** @param {import('@rspack/core').Compiler} compiler */
  apply(compiler) {
    const { HtmlRspackPlugin } = compiler.webpack;
    compiler.hooks.compilation.tap('BootScriptPlugin', (compilation) => {
      const hooks = HtmlRspackPlugin.getCompilationHooks(compilation);
      // After PreloadStartupChunks (stage 0) has added its preload links.
      hooks.alterAssetTags.tapPromise({ name: 'BootScriptPlugin', stage: 100 }, async (data) => {
        /** @type {string[]} */
        const scripts = [];
        /** @type {string[]} */
        const preload = [];
        const rest = [];
        for (const tag of data.assetTags.scripts) {
          const attributes = tag.attributes ?? {};
          if (tag.tagName === 'script' && typeof attributes.src === 'string') scripts.push(attributes.src);
          else if (tag.tagName === 'link' && attributes.rel === 'preload' && attributes.as === 'script' && typeof attributes.href === 'string') preload.push(attributes.href);
          else rest.push(tag);
        }
        if (scripts.length === 0) return data;
        const code = await bootScript(this.options.entry, { scripts, preload });
        data.assetTags.scripts = [{ tagName: 'script', voidTag: false, innerHTML: code, attributes: {}, meta: { plugin: 'BootScriptPlugin' } }, ...rest];
        return data;
      });
      // First in <head>: before the stylesheets (an inline script after a stylesheet waits for it).
      hooks.alterAssetTagGroups.tap('BootScriptPlugin', (data) => {
        const index = data.headTags.findIndex((tag) => tag.meta?.plugin === 'BootScriptPlugin');
        if (index > 0) data.headTags.unshift(...data.headTags.splice(index, 1));
        return data;
      });
    });
  }
}
