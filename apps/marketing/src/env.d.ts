/** Markdown files are bundled as their source text (rspack `asset/source`, a vitest transform in tests). */
declare module '*.md' {
  const source: string;
  export default source;
}
