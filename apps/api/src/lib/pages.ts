import { createHash } from 'node:crypto';

/** Small self-contained HTML pages (the sign-in popup's callback answers). */
export interface Page {
  html: string;
  /** CSP allowing exactly this page's inline script (by hash). */
  csp: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON for inside a <script>: no `</script>` or HTML comment can break out. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

interface PopupPageOptions {
  productName: string;
  title: string;
  heading: string;
  text: string;
  /** The message posted to `window.opener` (target: `targetOrigin`, never `*`). */
  message: Record<string, unknown>;
  targetOrigin: string;
  /** Close the popup after posting (success and cancel). */
  close: boolean;
  /** Where to go when there is no opener (the page was opened as a normal tab). */
  fallbackUrl: string | null;
  /** Footer detail, e.g. "1006 - 400". */
  detail?: string;
}

export function popupPage(options: PopupPageOptions): Page {
  const script = `(function(){var m=${scriptJson(options.message)},t=${scriptJson(options.targetOrigin)},f=${scriptJson(options.fallbackUrl)},c=${options.close ? 'true' : 'false'};var w=window.opener;if(w&&!w.closed){try{w.postMessage(m,t)}catch(e){}if(c){window.close();if(f){setTimeout(function(){location.replace(f)},800)}}}else if(f){location.replace(f)}})();`;
  const hash = createHash('sha256').update(script).digest('base64');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(`${options.productName} - ${options.title}`)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:#0f172a;color:#e2e8f0}main{max-width:28rem;padding:2rem;text-align:center}h1{font-size:1.25rem;color:#34d399}small{color:#94a3b8}</style>
</head><body><main><h1>${escapeHtml(options.heading)}</h1><p>${escapeHtml(options.text)}</p>${options.detail ? `<p><small>${escapeHtml(options.detail)}</small></p>` : ''}</main>
<script>${script}</script></body></html>`;
  const csp = [
    "default-src 'none'",
    `script-src 'sha256-${hash}'`,
    "style-src 'unsafe-inline'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, csp };
}

/** The `error` a failed sign-in popup posts to its opener, by catalogue code. */
export function popupErrorKind(code: number): string {
  switch (code) {
    case 1006:
      return 'invalid_state';
    case 1008:
      return 'discord_unavailable';
    case 1009:
      return 'unavailable';
    case 1003:
      return 'rate_limited';
    default:
      return 'oauth_failed';
  }
}

interface PopupErrorOptions {
  productName: string;
  targetOrigin: string;
  /** Catalogue code and HTTP status (shown as "<code> - <status>", docs/behaviour.md#request-overlay-and-error-catalogue). */
  code: number;
  httpStatus: number;
  message: string;
}

/** The sign-in popup's failure page: says what went wrong and posts `{auth:false, error, code}` to the dashboard. */
export function popupErrorPage(options: PopupErrorOptions): Page {
  return popupPage({
    productName: options.productName,
    title: 'Login failed',
    heading: 'Login failed',
    text: options.message,
    message: { auth: false, error: popupErrorKind(options.code), code: options.code },
    targetOrigin: options.targetOrigin,
    close: false,
    fallbackUrl: null,
    detail: `${options.code} - ${options.httpStatus}`,
  });
}
