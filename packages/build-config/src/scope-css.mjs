// @ts-check
/**
 * A PostCSS plugin that scopes a remote's Tailwind utilities to its own part of the page: every rule
 * in `@layer utilities` gets the remote's class as an ancestor (`.tk-remote-billing .flex`).
 *
 * Why: each remote ships the utilities its pages use (so it can be redeployed without a shell
 * build), but the same class in two stylesheets breaks Tailwind's ordering across them (a later
 * sheet's `.flex` overrides an earlier sheet's `lg:hidden`). Scoped, a remote's rules apply only
 * inside the element the shell wraps its pages in, and there they win (one class more specific)
 * over the shell's copies, in Tailwind's own order. Nothing outside the remote changes.
 */

/** The class the shell puts around a remote's pages (kept in step with @tickety/shared remoteScopeClass). */
export function remoteScopeClass(/** @type {string} */ name) {
  return `tk-remote-${name}`;
}

/** @param {{ scope: string }} options */
export function scopeUtilities(options) {
  const prefix = `.${options.scope}`;
  return {
    postcssPlugin: 'tickety-scope-utilities',
    /** @param {import('postcss').Root} root */
    OnceExit(root) {
      root.walkAtRules('layer', (layer) => {
        if (layer.params.trim() !== 'utilities' || !layer.nodes) return;
        layer.walkRules((rule) => {
          // Only rules directly in the layer or in an at-rule (media, supports); nested `&` rules
          // inherit the scope from their parent.
          let parent = rule.parent;
          while (parent && parent.type === 'atrule' && parent !== layer) {
            if (/keyframes$/i.test(/** @type {import('postcss').AtRule} */ (parent).name)) return;
            parent = parent.parent;
          }
          if (parent !== layer) return;
          rule.selectors = rule.selectors.map((s) => (s.startsWith(prefix) ? s : `${prefix} ${s}`));
        });
      });
    },
  };
}
scopeUtilities.postcss = true;
