import { htmlDocument, styleHash } from '../../kit/html';
import type { Page } from '../pages';

/** Discord's store look, light or dark as the system asks; no script, the one stylesheet allowed by hash. */
const CSS = `
:root{color-scheme:light dark;--bg:#f2f3f5;--card:#fff;--panel:#ebedef;--text:#060607;--muted:#4e5058;--line:#c4c9ce;--blurple:#5865f2;--blurple-dark:#4752c4;--red:#da373c;--red-bg:#fbe4e4;--green:#1f7a45;--green-bg:#dff5e8;--focus:#00a8fc;--field:#fff}
@media (prefers-color-scheme:dark){:root{--bg:#1e1f22;--card:#313338;--panel:#2b2d31;--text:#f2f3f5;--muted:#b5bac1;--line:#4e5058;--red:#fa777c;--red-bg:#f23f4324;--green:#57d28f;--green-bg:#23a55a24;--field:#1e1f22}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--text);font:15px/1.45 "gg sans","Noto Sans","Helvetica Neue",Helvetica,Arial,sans-serif}
main{max-width:480px;margin:0 auto;padding:20px 16px}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:20px;margin-bottom:14px}
.badge{display:inline-block;margin:0 0 10px;padding:2px 8px;border-radius:999px;background:#f0b2322e;color:#8a5a00;font-size:12px;font-weight:700}
@media (prefers-color-scheme:dark){.badge{color:#f0b232}}
h1{margin:0 0 6px;font-size:22px;line-height:1.25}
h2{margin:0 0 10px;font-size:16px}
p{margin:0 0 10px}
.muted{color:var(--muted);font-size:14px}
.price{font-size:20px;font-weight:800;margin:8px 0}
label,legend{display:block;margin:12px 0 4px;font-weight:700;font-size:14px}
fieldset{border:0;margin:0;padding:0}
input,select{width:100%;padding:10px 12px;border:1px solid var(--line);border-radius:8px;font:inherit;color:inherit;background:var(--field)}
input[aria-invalid=true],select[aria-invalid=true]{border-color:var(--red);border-width:2px}
.row{display:flex;gap:12px}.row>div{flex:1;min-width:0}
.field-error{margin:4px 0 0;color:var(--red);font-size:14px;font-weight:700}
.hint{margin:4px 0 0;color:var(--muted);font-size:13px}
button,.button{display:inline-block;width:100%;margin-top:16px;padding:12px 16px;border:0;border-radius:8px;background:var(--blurple);color:#fff;font:inherit;font-weight:700;text-align:center;text-decoration:none;cursor:pointer}
button:hover,.button:hover{background:var(--blurple-dark)}
.secondary{background:transparent;color:var(--text);border:1px solid var(--line)}
.secondary:hover{background:var(--panel)}
.danger{background:var(--red);color:#fff}
.danger:hover{filter:brightness(.92);background:var(--red)}
a{color:var(--blurple)}
@media (prefers-color-scheme:dark){a{color:#949cf7}}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,[tabindex]:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.alert{border-left:4px solid var(--red);background:var(--red-bg);padding:12px 14px;border-radius:6px;margin-bottom:14px}
.alert ul{margin:6px 0 0;padding-left:20px}
.ok{border-left:4px solid var(--green);background:var(--green-bg);padding:12px 14px;border-radius:6px;margin-bottom:14px}
.accounts{list-style:none;margin:0;padding:0;display:grid;gap:8px}
.accounts a{display:block;padding:10px 12px;border:1px solid var(--line);border-radius:8px;background:var(--panel);color:inherit;text-decoration:none}
.accounts a:hover{border-color:var(--blurple)}
.accounts small{display:block;color:var(--muted)}
.tests{margin:0;padding-left:18px;font-size:13px;color:var(--muted)}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;word-break:break-all}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:0 0 8px;font-size:14px}dt{color:var(--muted)}dd{margin:0;min-width:0}
.status{display:inline-block;padding:1px 8px;border-radius:999px;font-size:12px;font-weight:700;background:var(--panel)}
.status.active{background:var(--green-bg);color:var(--green)}.status.ending,.status.inactive{background:var(--red-bg);color:var(--red)}
form.inline{margin:0}
@media (prefers-reduced-motion:reduce){*{transition:none!important}}
`.trim();

const STYLE_HASH = styleHash(CSS);

/** A whole page: no script at all, the stylesheet by hash, forms posting to the stand-in only, never framed. */
export function storePage(title: string, body: string): Page {
  const csp = ["default-src 'none'", "script-src 'none'", `style-src '${STYLE_HASH}'`, "img-src 'self' data:", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'"].join('; ');
  const html = htmlDocument({
    title: `${title} | Discord (sandbox)`,
    css: CSS,
    referrer: 'same-origin',
    body: `<main>\n<p class="badge">Discord sandbox: no real payment</p>\n${body}\n</main>`,
  });
  return { html, csp };
}

