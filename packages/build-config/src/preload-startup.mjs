// @ts-check
/**
 * Adds `<link rel="preload" as="script">` to the shell's index.html for the chunks every start needs
 * (React DOM, the router, Redux Toolkit, the shell's bootstrap). Without it the browser discovers them
 * only after the entry chunk has run (Module Federation loads shared modules and the async boundary
 * from there): one more round trip on the way to the first paint.
 */
export class PreloadStartupChunks {
  /** @param {{ modules: RegExp[], chunkGroups?: string[] }} options */
  constructor(options) {
    this.options = options;
  }

  /** @param {import('@rspack/core').Compiler} compiler */
  apply(compiler) {
    const { HtmlRspackPlugin } = compiler.webpack;
    compiler.hooks.compilation.tap('PreloadStartupChunks', (compilation) => {
      HtmlRspackPlugin.getCompilationHooks(compilation).alterAssetTags.tapPromise('PreloadStartupChunks', async (data) => {
        const publicPath = typeof compilation.outputOptions.publicPath === 'string' ? compilation.outputOptions.publicPath : '/';
        /** @type {Set<string>} */
        const files = new Set();
        for (const name of this.options.chunkGroups ?? []) {
          const group = compilation.namedChunkGroups.get(name);
          for (const chunk of group?.chunks ?? []) for (const f of chunk.files) if (f.endsWith('.js')) files.add(f);
        }
        for (const chunk of compilation.chunks) {
          if (chunk.name === 'main') continue;
          const modules = compilation.chunkGraph.getChunkModules(chunk);
          const wanted = modules.some((chunkModule) => {
            const id = /** @type {{ resource?: string }} */ (chunkModule).resource ?? chunkModule.identifier();
            return this.options.modules.some((re) => re.test(id));
          });
          if (wanted) for (const f of chunk.files) if (f.endsWith('.js')) files.add(f);
        }
        const links = [...files].sort().map((file) => ({
          tagName: 'link',
          voidTag: true,
          attributes: { rel: 'preload', as: 'script', href: `${publicPath}${file}` },
        }));
        // After the entry script: it still comes first; these follow at once instead of after it has run.
        data.assetTags.scripts.push(...links);
        return data;
      });
    });
  }
}
