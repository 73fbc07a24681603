import { createHash } from 'node:crypto';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A JSON data block (never executed): `<`, `>`, `&` and line separators escaped so it cannot end the element. */
export function jsonBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `<script type="application/json" id="${escapeHtml(id)}">${json}</script>`;
}

/** The CSP source allowing one inline stylesheet (`'sha256-…'` without the quotes). */
export function styleHash(css: string): string {
  return `sha256-${createHash('sha256').update(css).digest('base64')}`;
}

export interface DocumentParts {
  title: string;
  css: string;
  /** `no-referrer` for pages that link out, `same-origin` for the stand-ins' own flows. */
  referrer: 'no-referrer' | 'same-origin';
  /** Inside <body>, as given (already escaped). */
  body: string;
  /** Lines added to <head> after the stylesheet, each ending in a newline. */
  head?: string;
  /** Attributes of <body>, the values escaped here. */
  bodyAttributes?: Record<string, string>;
}

/** The HTML document every stand-in page is (never indexed, one inline stylesheet). */
export function htmlDocument(parts: DocumentParts): string {
  const attributes = Object.entries(parts.bodyAttributes ?? {})
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="${parts.referrer}">
<meta name="robots" content="noindex">
<title>${escapeHtml(parts.title)}</title>
<style>${parts.css}</style>
${parts.head ?? ''}</head>
<body${attributes}>
${parts.body}
</body>
</html>
`;
}
