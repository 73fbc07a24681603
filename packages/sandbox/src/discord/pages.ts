import { escapeHtml, htmlDocument, styleHash } from '../kit/html';
import type { DemoGuild, DemoUser } from './demo-data';

/** What each scope lets the application do, in the words of Discord's consent screen. */
const SCOPE_WORDS: Record<string, string> = {
  identify: 'Access your username, avatar, and banner',
  email: 'Access your email address',
  guilds: "Know what servers you're in",
  'guilds.members.read': "Read your member info (nickname, avatar, roles) in servers you're in",
  connections: 'Access your third-party connections',
  bot: 'Add a bot to a server',
  'applications.commands': 'Create commands in a server',
};

const CSS = `
:root{color-scheme:dark;--bg:#1e1f22;--card:#313338;--panel:#2b2d31;--text:#f2f3f5;--muted:#b5bac1;--line:#3f4147;--blurple:#5865f2;--blurple-dark:#4752c4;--green:#23a55a;--red:#f23f43;--focus:#00a8fc}
*{box-sizing:border-box}
html{background:var(--bg)}
body{margin:0;min-height:100vh;display:flex;justify-content:center;align-items:flex-start;padding:24px 16px;color:var(--text);
font:15px/1.4 "gg sans","Noto Sans","Helvetica Neue",Helvetica,Arial,sans-serif;
background:radial-gradient(120% 60% at 50% 0%,#5865f238 0%,transparent 70%),var(--bg)}
main{width:100%;max-width:440px;background:var(--card);border-radius:12px;box-shadow:0 8px 32px #0008;overflow:hidden}
.head{padding:20px 24px 4px;text-align:center}
.icons{display:flex;justify-content:center;align-items:center;gap:12px}
.icon{width:56px;height:56px;border-radius:50%;display:grid;place-items:center;font-weight:800;font-size:23px;background:var(--blurple);color:#fff}
.icon.warn{background:var(--red)}
.icon.done{background:var(--green)}
.icon.discord{background:#fff;color:var(--blurple)}
.dots{color:var(--muted);letter-spacing:3px}
.kicker{margin:12px 0 2px;color:var(--muted);font-size:13px;text-transform:uppercase;letter-spacing:.04em}
h1{margin:0 0 4px;font-size:21px;line-height:1.25}
.sub{margin:0;color:var(--muted);font-size:14px}
section{padding:8px 24px}
h2{margin:8px 0 10px;font-size:12px;font-weight:700;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
ul{list-style:none;margin:0;padding:0}
.scopes li{display:flex;gap:10px;align-items:flex-start;padding:6px 0;border-bottom:1px solid var(--line);font-size:14px}
.scopes li:last-child{border-bottom:0}
.tick{flex:none;width:20px;height:20px;border-radius:50%;background:var(--green);color:#fff;display:grid;place-items:center;font-size:12px;font-weight:800}
.choices{display:grid;gap:8px}
.choice{display:flex;align-items:center;gap:12px;width:100%;padding:8px 12px;border:1px solid var(--line);border-radius:8px;background:var(--panel);
color:inherit;font:inherit;text-align:left;cursor:pointer;transition:background .12s,border-color .12s}
.choice:hover{background:#393c41;border-color:var(--blurple)}
.choice:active{background:var(--blurple-dark)}
.choice img{flex:none;width:40px;height:40px;border-radius:50%;background:var(--line)}
.choice .text{min-width:0}
.choice .name{display:block;font-weight:700}
.choice .blurb{display:block;font-size:13px;color:var(--muted)}
.choice[disabled]{cursor:default;opacity:.6}
.choice[disabled]:hover{background:var(--panel);border-color:var(--line)}
.view{display:block;margin:4px 0 2px 12px;font-size:13px;color:var(--focus)}
button:focus-visible,a:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.fine{margin:0;padding:8px 24px 14px;font-size:12px;color:var(--muted)}
.fine strong{color:var(--text);word-break:break-all}
.actions{display:flex;justify-content:flex-end;gap:8px;padding:12px 24px;background:var(--panel)}
.secondary{min-width:96px;padding:10px 16px;border:0;border-radius:4px;background:transparent;color:var(--text);font:inherit;font-weight:600;cursor:pointer}
.secondary:hover{text-decoration:underline}
.error{border-left:4px solid var(--red);background:#f23f4314;padding:12px 14px;border-radius:4px;font-size:14px}
.error code{word-break:break-all}
.ok{border-left:4px solid var(--green);background:#23a55a14;padding:12px 14px;border-radius:4px;font-size:14px}
.badge{display:inline-block;margin-top:8px;padding:2px 8px;border-radius:999px;background:#f0b2321f;color:#f0b232;font-size:12px;font-weight:700}
@media (max-width:480px){body{padding:0}main{max-width:none;min-height:100vh;border-radius:0;box-shadow:none}}
@media (max-height:820px){body{padding-top:8px;padding-bottom:8px}.head{padding-top:14px}.icon{width:44px;height:44px;font-size:19px}.kicker{margin-top:8px}h2{margin:4px 0 6px}.scopes li{padding:4px 0}.choice{padding:6px 12px}.fine{padding-bottom:10px}.actions{padding:10px 24px}}
@media (prefers-reduced-motion:reduce){.choice{transition:none}}
`.trim();

const STYLE_HASH = styleHash(CSS);

export interface Page {
  html: string;
  csp: string;
}

/**
 * A full page with its strict CSP (no script at all; the one inline stylesheet allowed by hash).
 * `formTargets`: where its forms may post besides itself (a page with a form always may post to
 * itself); absent, the page has no form and may post nowhere.
 */
export function page(options: { title: string; body: string; formTargets?: string[] }): Page {
  const forms = options.formTargets ? [...new Set(["'self'", ...options.formTargets])].join(' ') : "'none'";
  const csp = [
    "default-src 'none'",
    "img-src 'self' data:",
    `style-src '${STYLE_HASH}'`,
    `form-action ${forms}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const html = htmlDocument({ title: options.title, css: CSS, referrer: 'no-referrer', body: `<main>\n${options.body}\n</main>` });
  return { html, csp };
}

function initials(name: string): string {
  const letters = name
    .replace(/\(.*?\)/g, ' ')
    .split(/\s+/)
    .filter((w) => /\p{L}|\p{N}/u.test(w))
    .map((w) => [...w.replace(/[^\p{L}\p{N}]/gu, '')][0] ?? '')
    .join('');
  return [...letters].slice(0, 2).join('').toUpperCase() || '?';
}

function header(appName: string, kicker: string, heading: string, sub: string, mark?: 'warn' | 'done'): string {
  const icons = mark
    ? `<span class="icon ${mark}">${mark === 'warn' ? '!' : '✓'}</span>`
    : `<span class="icon">${escapeHtml(initials(appName))}</span><span class="dots">•••</span><span class="icon discord">D</span>`;
  return `<div class="head">
<div class="icons" aria-hidden="true">${icons}</div>
<p class="kicker">${escapeHtml(kicker)}</p>
<h1>${heading}</h1>
${sub ? `<p class="sub">${sub}</p>` : ''}
<span class="badge">Sandbox: no real Discord account is used</span>
</div>`;
}

function hiddenFields(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
}

function scopeList(scopes: string[]): string {
  return `<ul class="scopes">${scopes
    .map((s) => `<li><span class="tick" aria-hidden="true">✓</span><span>${escapeHtml(SCOPE_WORDS[s] ?? s)}</span></li>`)
    .join('')}</ul>`;
}

/** Relative to `<base>/oauth2/authorize`, so the page works whatever host or proxy path it is reached at. */
function avatarSrc(user: DemoUser): string {
  if (user.avatar) return `../cdn/avatars/${user.id}/${user.avatar}.png?size=64`;
  return `../cdn/embed/avatars/${(BigInt(user.id) >> 22n) % 6n}.png?size=64`;
}

/** Discord's consent screen, with one "Sign in as" button per demo user instead of the signed-in account. */
export function chooserPage(options: {
  appName: string;
  scopes: string[];
  redirectUri: string;
  users: readonly DemoUser[];
  params: Record<string, string>;
}): Page {
  const redirectOrigin = new URL(options.redirectUri).origin;
  const users = options.users
    .map(
      (user) => `<li><button type="submit" class="choice" name="user_id" value="${escapeHtml(user.id)}" aria-label="Sign in as ${escapeHtml(user.globalName)}" aria-describedby="blurb-${escapeHtml(user.id)}">
<img src="${escapeHtml(avatarSrc(user))}" alt="" width="40" height="40">
<span class="text"><span class="name">Sign in as ${escapeHtml(user.globalName)}</span><span class="blurb" id="blurb-${escapeHtml(user.id)}">${escapeHtml(user.blurb)} · @${escapeHtml(user.username)}</span></span>
</button></li>`,
    )
    .join('\n');
  const body = `<form method="post" action="authorize">
${hiddenFields(options.params)}
${header(options.appName, 'An external application', escapeHtml(options.appName), 'wants to access your Discord account')}
<section aria-labelledby="scopes-h">
<h2 id="scopes-h">This will allow the developer of ${escapeHtml(options.appName)} to:</h2>
${scopeList(options.scopes)}
</section>
<section aria-labelledby="users-h">
<h2 id="users-h">Choose a demo account</h2>
<ul class="choices">
${users}
</ul>
</section>
<p class="fine">Once you authorize, you will be redirected outside of Discord to: <strong>${escapeHtml(redirectOrigin)}</strong></p>
<div class="actions"><button type="submit" class="secondary" name="decision" value="cancel">Cancel</button></div>
</form>`;
  return page({ title: 'Discord (sandbox) | Authorize access to your account', body, formTargets: [redirectOrigin] });
}

/** Discord's "add a bot to a server" screen: one button per demo server the bot is not in yet. */
export function botInvitePage(options: {
  appName: string;
  guilds: readonly DemoGuild[];
  botGuilds: ReadonlySet<string>;
  params: Record<string, string>;
  redirectOrigin: string | null;
}): Page {
  const items = options.guilds
    .map((guild) => {
      const added = options.botGuilds.has(guild.id);
      const img = guild.icon ? `../cdn/icons/${guild.id}/${guild.icon}.png?size=64` : `../cdn/icons/${guild.id}/default.png?size=64`;
      return `<li><button type="submit" class="choice" name="add_guild_id" value="${escapeHtml(guild.id)}"${added ? ' disabled' : ''} aria-label="${
        added ? `${escapeHtml(guild.name)}: already added` : `Add to ${escapeHtml(guild.name)}`
      }">
<img src="${escapeHtml(img)}" alt="" width="40" height="40">
<span class="text"><span class="name">${added ? escapeHtml(guild.name) : `Add to ${escapeHtml(guild.name)}`}</span><span class="blurb">${added ? 'The bot is already in this server' : 'The bot joins this demo server'}</span></span>
</button>${added ? `<a class="view" href="../guilds/${escapeHtml(guild.id)}">See ${escapeHtml(guild.name)}'s channels and what the bot posted</a>` : ''}</li>`;
    })
    .join('\n');
  const body = `<form method="post" action="authorize">
${hiddenFields(options.params)}
${header(options.appName, 'Add a bot', `Add ${escapeHtml(options.appName)} to a server`, 'The sandbox adds the bot to a demo server')}
<section aria-labelledby="guilds-h">
<h2 id="guilds-h">Choose a server</h2>
<ul class="choices">
${items}
</ul>
</section>
<div class="actions"><button type="submit" class="secondary" name="decision" value="cancel">Cancel</button></div>
</form>`;
  return page({ title: 'Discord (sandbox) | Add to server', body, formTargets: options.redirectOrigin ? [options.redirectOrigin] : [] });
}

/** An error screen (the request is never redirected). */
export function errorPage(title: string, detail: string): Page {
  const body = `${header('Discord sandbox', 'Authorization failed', escapeHtml(title), 'The application sent an invalid authorization request.', 'warn')}
<section><p class="error" role="alert">${escapeHtml(detail)}</p></section>
<p class="fine">Nothing was shared with the application. Close this window and try again from the application.</p>`;
  return page({ title: `Discord (sandbox) | ${title}`, body });
}

export function messagePage(title: string, text: string): Page {
  const body = `${header('Discord sandbox', 'Discord sandbox', escapeHtml(title), '', 'done')}
<section><p class="ok" role="status">${escapeHtml(text)}</p></section>
<p class="fine">You can close this window.</p>`;
  return page({ title: `Discord (sandbox) | ${title}`, body });
}
