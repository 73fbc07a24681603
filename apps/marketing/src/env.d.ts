/** Markdown files are bundled as their source text (rspack `asset/source`, a vitest transform in tests). */
declare module '*.md' {
  const source: string;
  export default source;
}

/** rspack replaces `process.env.NODE_ENV` at build time (the mode); there is no `process` in the browser. */
declare const process: { env: { NODE_ENV?: 'development' | 'production' | 'test' } };

/** Stylesheets are bundled by rspack (css/auto); importing one yields nothing to use. */
declare module '*.css';
