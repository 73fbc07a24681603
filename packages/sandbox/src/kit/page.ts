import { escapeHtml, htmlDocument, styleHash } from './html';

const CSS = `
:root{color-scheme:light;--bg:#f4f5f7;--card:#fff;--text:#1d1f24;--muted:#5b6270;--line:#d9dce2;--accent:#1a56db;--accent-dark:#1444b0;--red:#b42318;--red-bg:#fef3f2;--green:#067647;--green-bg:#ecfdf3;--focus:#f59e0b}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--text);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
main{max-width:460px;margin:0 auto;padding:20px 16px}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:20px;margin-bottom:14px}
.sandbox{display:inline-block;margin:0 0 10px;padding:2px 8px;border-radius:999px;background:#fff4e5;color:#8a4b00;font-size:12px;font-weight:700;letter-spacing:.02em}
h1{margin:0 0 6px;font-size:21px;line-height:1.25}
h2{margin:0 0 10px;font-size:16px}
p{margin:0 0 10px}
.muted{color:var(--muted);font-size:14px}
.lines{list-style:none;margin:0 0 10px;padding:0}
.lines li{display:flex;justify-content:space-between;gap:12px;padding:6px 0;border-bottom:1px solid var(--line)}
.total{display:flex;justify-content:space-between;font-weight:700;font-size:16px}
label{display:block;margin:12px 0 4px;font-weight:600;font-size:14px}
input{width:100%;padding:10px 12px;border:1px solid #9aa1ad;border-radius:8px;font:inherit;color:inherit;background:#fff}
input[aria-invalid=true]{border-color:var(--red);border-width:2px}
.row{display:flex;gap:12px}.row>div{flex:1}
.field-error{margin:4px 0 0;color:var(--red);font-size:14px;font-weight:600}
.hint{margin:4px 0 0;color:var(--muted);font-size:13px}
button,.button{display:inline-block;width:100%;margin-top:18px;padding:12px 16px;border:0;border-radius:8px;background:var(--accent);color:#fff;font:inherit;font-weight:700;text-align:center;text-decoration:none;cursor:pointer}
button:hover,.button:hover{background:var(--accent-dark)}
button[disabled]{opacity:.7;cursor:progress}
.secondary{background:#fff;color:var(--accent);border:1px solid var(--accent)}
.secondary:hover{background:#eef3ff}
.danger{background:var(--red)}
.danger:hover{background:#912018}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,[tabindex]:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.alert{border-left:4px solid var(--red);background:var(--red-bg);padding:12px 14px;border-radius:6px;margin-bottom:14px}
.alert ul{margin:6px 0 0;padding-left:20px}
.ok{border-left:4px solid var(--green);background:var(--green-bg);padding:12px 14px;border-radius:6px;margin-bottom:14px}
.tests{margin:0;padding-left:18px;font-size:13px;color:var(--muted)}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:0 0 8px;font-size:14px}dt{color:var(--muted)}dd{margin:0}
.status{display:inline-block;padding:1px 8px;border-radius:999px;font-size:12px;font-weight:700;background:#eef0f3}
.status.active{background:var(--green-bg);color:var(--green)}.status.past_due,.status.canceled{background:var(--red-bg);color:var(--red)}
form.inline{margin:0}
@media (prefers-reduced-motion:reduce){*{transition:none!important}}
`.trim();

const styleHashes = new Map<string, string>();

/** The CSP hash of a page's stylesheet (the shared one plus the page's own), computed once per stylesheet. */
function cachedStyleHash(css: string): string {
  let hash = styleHashes.get(css);
  if (!hash) {
    hash = styleHash(css);
    styleHashes.set(css, hash);
  }
  return hash;
}

export interface Page {
  html: string;
  csp: string;
}

export interface PageOptions {
  title: string;
  body: string;
  /** Load `checkout.js` (same origin, from `scriptPath`, a path relative to the page). */
  scriptPath?: string;
  /** Origins besides the stand-in's own allowed to frame the page (the Paddle.js host page). */
  frameAncestors?: string[];
  /** Attributes of <body> (already escaped values). */
  bodyAttributes?: Record<string, string>;
  /** Rules added after the shared stylesheet (a constant per kind of page: its hash is cached). */
  css?: string;
}

/**
 * A whole page with a strict CSP: no inline script (the only script is the same-origin checkout.js),
 * the one inline stylesheet allowed by its hash, forms posting to the stand-in only, framing only by
 * the stand-in itself and the origins given.
 */
export function page(options: PageOptions): Page {
  const ancestors = ["'self'", ...(options.frameAncestors ?? [])].join(' ');
  const css = options.css ? `${CSS}\n${options.css}` : CSS;
  const csp = [
    "default-src 'none'",
    options.scriptPath ? "script-src 'self'" : "script-src 'none'",
    `style-src '${cachedStyleHash(css)}'`,
    "img-src 'self' data:",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
  const html = htmlDocument({
    title: options.title,
    css,
    referrer: 'same-origin',
    head: options.scriptPath ? `<script src="${escapeHtml(options.scriptPath)}" defer></script>\n` : '',
    bodyAttributes: options.bodyAttributes,
    body: `<main>\n${options.body}\n</main>`,
  });
  return { html, csp };
}
