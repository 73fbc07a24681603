import { escapeHtml, htmlDocument, styleHash } from '../../kit/html';
import type { AnalyticsStart } from './control';

const CSS = `
:root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--text:#1d1f24;--muted:#535a66;--line:#d9dce2;--accent:#1a56db;--focus:#b45309;--badge-bg:#fff4e5;--badge:#7a4300}
@media (prefers-color-scheme:dark){:root{--bg:#18181b;--card:#27272a;--text:#f4f4f5;--muted:#b4b4bd;--line:#3f3f46;--accent:#93b4ff;--focus:#fbbf24;--badge-bg:#3b2a12;--badge:#fcd9a8}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--text);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
main{max-width:640px;margin:0 auto;padding:16px 12px}
.sandbox{display:inline-block;margin:0 0 8px;padding:2px 8px;border-radius:999px;background:var(--badge-bg);color:var(--badge);font-size:12px;font-weight:700}
h1{margin:0 0 6px;font-size:21px;line-height:1.25}
h2{margin:20px 0 8px;font-size:17px}
p{margin:0 0 10px}
.muted{color:var(--muted);font-size:14px}
ol{list-style:none;margin:0;padding:0}
li{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px;margin:0 0 10px}
dl{display:grid;grid-template-columns:auto minmax(0,1fr);gap:2px 12px;margin:0;font-size:14px}
dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
a{color:var(--accent)}
a:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
`.trim();
const STYLE_HASH = styleHash(CSS);

/** No script at all; the one inline stylesheet allowed by its hash; not framable. */
export const PAGE_CSP = ["default-src 'none'", `style-src '${STYLE_HASH}'`, "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join('; ');

function entry(start: AnalyticsStart): string {
  const who = start.user_id !== null ? `user ${start.user_id}` : `email ${start.user_email ?? ''}`;
  const rows: Array<[string, string | null]> = [
    ['user_id', start.user_id],
    ['user_email', start.user_email],
    ['page', start.page],
    ['token', start.token],
  ];
  return `<li aria-label="${escapeHtml(`Start for ${who}`)}">
<dl>
<dt>at</dt><dd><time datetime="${escapeHtml(start.at)}">${escapeHtml(start.at.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC'))}</time></dd>
${rows
  .filter(([, v]) => v !== null)
  .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd><code>${escapeHtml(v ?? '')}</code></dd>`)
  .join('\n')}
</dl>
</li>`;
}

/** `GET /`: the recent starts, newest first, so a demo user can see the dashboard's start arrived. */
export function startsPage(starts: AnalyticsStart[], shown: number): string {
  const recent = starts.slice(-shown).reverse();
  const list =
    recent.length === 0
      ? '<p>No start yet. Sign in to the dashboard: once the page is idle it starts the script with your user id, and the start appears here.</p>'
      : `<ol>\n${recent.map(entry).join('\n')}\n</ol>`;
  return htmlDocument({
    title: 'ProfitWell sandbox: recent starts',
    css: CSS,
    referrer: 'same-origin',
    body: `<main>
<p class="sandbox">Sandbox</p>
<h1>ProfitWell sandbox</h1>
<p class="muted">A stand-in for the subscription-analytics script (<code>profitwell.js</code>). It records each <code>profitwell('start', …)</code> the dashboard makes; nothing leaves this server.</p>
<h2 id="starts">Recent starts (${recent.length}${starts.length > recent.length ? ` of ${starts.length}` : ''})</h2>
<section aria-labelledby="starts">
${list}
</section>
<p><a href="">Reload</a></p>
</main>`,
  });
}
