/**
 * The sandbox's own pages, to see what the bot did: `/guilds` (the demo servers), `/guilds/{id}` (a
 * server's channels, roles, emojis and members, and where the bot cannot post) and `/channels/{id}`
 * (a channel's messages as Discord shows them: embeds, buttons, select menus), in Discord's dark
 * theme. Like the consent screen they run no script: every value is escaped, the one stylesheet is
 * allowed by its hash, and images come from the sandbox itself.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { runningDesk } from '../demo-bot/live';
import { escapeHtml, htmlDocument, styleHash } from '../kit/html';
import { signAttachment } from './attachments';
import { DEMO_GUILDS, type DemoChannel, type DemoRole } from './demo-data';
import type { SandboxEngine } from './engine';
import { type GuildContext, guildContext, memberOf } from './guild-routes';
import { botMember, displayOrder, permissionChannel, personOf, type StoredMessage, sortedRoles } from './guild-state';
import { colourCss, colourHex, type MarkdownContext, renderInline, renderMarkdown } from './markdown';
import type { ActionRowOut, ButtonOut, EmbedOut, EmojiOut, SelectOut } from './message-validation';
import { sendPage } from './oauth';
import type { Page } from './pages';
import { computeChannelPermissions, hasPermission } from './permissions';
import { discordTimestamp } from './snowflake';
import { SNOWFLAKE } from './util';

const CSS = `
:root{color-scheme:dark;--bg:#313338;--side:#2b2d31;--deep:#1e1f22;--text:#dbdee1;--head:#f2f3f5;--muted:#949ba4;--line:#3f4147;--link:#00a8fc;--blurple:#5865f2;--green:#248046;--red:#da373c;--grey:#4e5058;--focus:#00a8fc}
*{box-sizing:border-box}
html,body{margin:0}
body{min-height:100vh;background:var(--bg);color:var(--text);font:16px/1.375 "gg sans","Noto Sans","Helvetica Neue",Helvetica,Arial,sans-serif}
a{color:var(--link);text-decoration:none}
a:hover{text-decoration:underline}
a:focus-visible,summary:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.app{display:grid;grid-template-columns:248px minmax(0,1fr);min-height:100vh}
.side{background:var(--side);padding:0 8px 16px}
.guild{display:flex;align-items:center;gap:8px;min-height:48px;padding:8px;margin:0 -8px 8px;border-bottom:1px solid var(--deep);font-weight:600;color:var(--head)}
.guild img{width:28px;height:28px;border-radius:50%}
.side h2{margin:16px 8px 4px;font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.02em;color:var(--muted)}
ul.plain{list-style:none;margin:0;padding:0}
.chan{display:flex;align-items:center;gap:6px;padding:5px 8px;margin:1px 0;border-radius:4px;color:var(--muted)}
.chan:hover{background:#35373c;color:var(--text);text-decoration:none}
.chan[aria-current=page]{background:#404249;color:#fff}
.hash{font-size:20px;line-height:1;color:#80848e}
.flag{margin-left:auto;flex:none;font-size:11px;padding:1px 6px;border-radius:8px;background:#da373c33;color:#fa777c}
.flag.warn{background:#f0b23233;color:#f0b232}
.chat{display:flex;flex-direction:column;min-width:0}
.bar{display:flex;align-items:center;gap:8px;min-height:48px;padding:8px 16px;border-bottom:1px solid #26272b;color:var(--head);font-weight:600}
.bar h1{margin:0;font-size:16px}
.bar .topic{font-weight:400;color:var(--muted);font-size:14px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;border-left:1px solid var(--line);padding-left:8px}
.badge{margin-left:auto;flex:none;padding:2px 8px;border-radius:999px;background:#f0b2321f;color:#f0b232;font-size:12px;font-weight:700}
.notice{margin:12px 16px 0;padding:8px 12px;border-radius:4px;font-size:14px;background:var(--side);border-left:4px solid #23a55a}
.notice.bad{border-left-color:#f23f43}
.notice.warn{border-left-color:#f0b232}
.messages{list-style:none;margin:0;padding:8px 0 16px;flex:1}
.msg{display:grid;grid-template-columns:40px minmax(0,1fr);gap:0 16px;padding:2px 16px;margin-top:14px}
.msg:hover{background:#2e3035}
.avatar{width:40px;height:40px;border-radius:50%;margin-top:2px}
.meta{display:flex;align-items:baseline;gap:6px;flex-wrap:wrap}
.name{font-weight:600;color:var(--head)}
.tag{background:var(--blurple);color:#fff;font-size:10px;font-weight:600;padding:1px 4px;border-radius:3px;position:relative;top:-2px}
.time,.edited{font-size:12px;color:var(--muted)}
.content{overflow-wrap:anywhere}
code{background:var(--deep);border-radius:3px;padding:0 3px;font-size:85%;font-family:Consolas,"Andale Mono WT","Liberation Mono",monospace}
pre{background:var(--side);border:1px solid var(--deep);border-radius:4px;padding:8px;margin:4px 0;white-space:pre-wrap;overflow-wrap:anywhere}
pre code{background:none;padding:0}
blockquote{margin:2px 0;padding:0 8px 0 12px;border-left:4px solid var(--grey)}
.content ul,.embed ul{margin:2px 0;padding-left:20px}
.md-h1{font-size:24px;font-weight:700;color:var(--head);margin:8px 0 2px}
.md-h2{font-size:20px;font-weight:700;color:var(--head);margin:8px 0 2px}
.md-h3{font-size:16px;font-weight:700;color:var(--head);margin:8px 0 2px}
.md-sub{font-size:13px;color:var(--muted)}
.mention{background:#5865f24d;color:var(--k,#c9cdfb);border-radius:3px;padding:0 2px;font-weight:500}
.spoiler{background:var(--deep);color:transparent;border-radius:3px}
.spoiler:hover{color:inherit;background:#ffffff1a}
.stamp{background:#ffffff14;border-radius:3px;padding:0 2px}
.emoji{width:22px;height:22px;vertical-align:-6px;object-fit:contain}
.embed{display:grid;grid-template-columns:minmax(0,1fr) auto;column-gap:16px;max-width:520px;margin-top:4px;padding:0 16px 16px 12px;background:var(--side);border-left:4px solid var(--k,var(--deep));border-radius:4px}
.embed-author{display:flex;align-items:center;gap:8px;font-size:14px;font-weight:600;color:var(--head);margin-top:8px}
.embed-author img{width:24px;height:24px;border-radius:50%}
.embed-title{font-weight:600;color:var(--head);margin-top:8px}
.embed-desc{font-size:14px;margin-top:8px;overflow-wrap:anywhere}
.fields{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:8px;margin-top:8px}
.field{grid-column:1/-1;font-size:14px;min-width:0;overflow-wrap:anywhere}
.field.inline{grid-column:auto}
.field-name{font-weight:600;color:var(--head);margin-bottom:2px}
.files{margin:4px 0}.files img{display:block;max-width:min(400px,100%);max-height:300px;border-radius:4px}
.embed-image{grid-column:1/-1;margin-top:16px;min-width:0}
.embed-image img{display:block;max-width:100%;max-height:300px;border-radius:4px}
.thumb{grid-column:2;grid-row:1/span 6;margin-top:8px;width:80px;height:80px;overflow:hidden;border-radius:4px;font-size:11px;color:var(--muted);overflow-wrap:anywhere}
.thumb img{width:80px;height:80px;object-fit:contain}
.embed-image{font-size:12px;color:var(--muted);overflow-wrap:anywhere}
.page .notice{margin:0 0 8px}
.embed-footer{grid-column:1/-1;display:flex;align-items:center;gap:8px;font-size:12px;color:var(--muted);margin-top:8px}
.embed-footer img{width:20px;height:20px;border-radius:50%}
.broken{display:inline-block;padding:4px 8px;border:1px dashed var(--line);border-radius:4px;font-size:12px;color:var(--muted);overflow-wrap:anywhere}
.rows{display:grid;gap:8px;margin-top:8px}
.row{display:flex;flex-wrap:wrap;gap:8px}
.btn{display:inline-flex;align-items:center;gap:6px;min-height:32px;padding:2px 16px;border-radius:3px;font-size:14px;font-weight:500;color:#fff;background:var(--grey)}
.btn.s1{background:var(--blurple)}
.btn.s3{background:var(--green)}
.btn.s4{background:var(--red)}
.btn.s6{background:linear-gradient(90deg,#5865f2,#eb459e)}
a.btn:hover{text-decoration:none;filter:brightness(1.12)}
.btn.off{opacity:.5}
.select{max-width:400px;background:var(--deep);border-radius:4px;font-size:14px}
.select summary{display:flex;justify-content:space-between;gap:8px;padding:8px 12px;cursor:pointer;color:var(--muted);list-style:none}
.select summary::-webkit-details-marker{display:none}
.select summary::after{content:"\\25BE"}
.select ul{list-style:none;margin:0;padding:4px;border-top:1px solid var(--line)}
.select li{display:flex;gap:8px;align-items:center;padding:6px 8px;border-radius:3px}
.select li:hover{background:#35373c}
.opt-desc{display:block;color:var(--muted);font-size:12px}
.composer{margin:0 16px 24px;padding:11px 16px;border-radius:8px;background:#383a40;color:var(--muted);font-size:14px}
.empty{padding:24px 16px;color:var(--muted)}
.page{padding:16px;max-width:960px}
.page h2{margin:24px 0 8px;font-size:12px;font-weight:700;text-transform:uppercase;letter-spacing:.02em;color:var(--muted)}
.tbl{width:100%;border-collapse:collapse;font-size:14px}
.tbl th,.tbl td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
.tbl th{color:var(--muted);font-weight:600}
.dot{display:inline-block;width:12px;height:12px;border-radius:50%;background:var(--k,#99aab5);margin-right:6px;vertical-align:-1px}
.chips{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:0;padding:0}
.chip{display:inline-flex;align-items:center;gap:4px;padding:2px 8px;border-radius:4px;background:var(--side);font-size:13px}
.servers{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:12px;list-style:none;margin:0;padding:0}
.server{display:flex;align-items:center;gap:12px;padding:12px;border-radius:8px;background:var(--side);color:var(--head)}
.server:hover{background:#35373c;text-decoration:none}
.server img{width:48px;height:48px;border-radius:50%}
.server small{display:block;color:var(--muted);font-size:12px}
.st-ok{color:#23a55a}
.st-bad{color:#f23f43}
.st-warn{color:#f0b232}
@media (max-width:720px){.app{grid-template-columns:1fr}.side{order:2}.embed{max-width:none}}
`.trim();

/** A page of the viewer: its own stylesheet plus the colour classes it uses, allowed by hash (no script). */
function viewerPage(title: string, body: string, colours: Iterable<number> = []): Page {
  const style = `${CSS}\n${colourCss(colours)}`;
  const hash = styleHash(style);
  const csp = ["default-src 'none'", "img-src 'self' data:", `style-src '${hash}'`, "form-action 'none'", "base-uri 'none'", "frame-ancestors 'none'"].join('; ');
  const html = htmlDocument({ title, css: style, referrer: 'no-referrer', body });
  return { html, csp };
}

const SANDBOX_BADGE = '<span class="badge">Discord sandbox</span>';

function notFoundPage(what: string): Page {
  return viewerPage(
    `Discord (sandbox) | ${what}`,
    `<main class="page"><h1>${escapeHtml(what)}</h1><p>The sandbox has no such thing. <a href="../guilds">See the demo servers</a>.</p></main>`,
  );
}

/** Relative to a page one level under the mount (`/guilds/{id}`, `/channels/{id}`): `up` is '../'. */
function iconSrc(up: string, guild: { id: string; icon: string | null }, size = 64): string {
  return `${up}cdn/icons/${guild.id}/${guild.icon ?? 'default'}.png?size=${size}`;
}

function avatarSrc(up: string, userId: string, avatar: string | null): string {
  if (avatar) return `${up}cdn/avatars/${userId}/${avatar}.png?size=64`;
  return `${up}cdn/embed/avatars/${(BigInt(userId) >> 22n) % 6n}.png?size=64`;
}

/** What the bot can do in a channel, in words and as a sidebar flag. */
function botStatus(perms: bigint | null): { text: string; level: 'ok' | 'warn' | 'bad'; flag: string | null } {
  if (perms === null) return { text: 'The bot is not in this server.', level: 'bad', flag: null };
  if (!hasPermission(perms, 'VIEW_CHANNEL')) return { text: 'The bot cannot see this channel (no View Channel).', level: 'bad', flag: 'hidden' };
  if (!hasPermission(perms, 'SEND_MESSAGES')) return { text: 'The bot cannot post here (no Send Messages).', level: 'bad', flag: 'read-only' };
  if (!hasPermission(perms, 'EMBED_LINKS')) return { text: 'The bot can post text here, but not embeds (no Embed Links).', level: 'warn', flag: 'no embeds' };
  return { text: 'The bot can post here.', level: 'ok', flag: null };
}

function timeText(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

interface View {
  engine: SandboxEngine;
  ctx: GuildContext;
}

/** The bot's permissions in a channel (null when it is not in the server). */
function botPerms(view: View, channel: DemoChannel): bigint | null {
  if (!view.ctx.botIn) return null;
  const overwrites = view.engine.guilds.overwritesOf(channel);
  return computeChannelPermissions(view.ctx.perm, botMember(view.engine.options.clientId, view.ctx.data), permissionChannel(channel, overwrites));
}

function displayName(view: View, userId: string): string {
  if (userId === view.engine.options.clientId) return view.engine.options.appName;
  const member = memberOf(view.engine, view.ctx, userId);
  const person = personOf(userId) ?? view.engine.guilds.visitor(userId);
  return member?.nick ?? person?.globalName ?? person?.username ?? 'Deleted User';
}

function markdownContext(view: View): MarkdownContext {
  return {
    user: (id) => (id === view.engine.options.clientId || personOf(id) || view.engine.guilds.visitor(id) ? displayName(view, id) : null),
    role: (id) => {
      const role = view.ctx.data.roles.find((r) => r.id === id);
      return role ? { name: role.name, color: role.color } : null;
    },
    channel: (id) => {
      const found = view.engine.guilds.channel(id);
      return found ? { name: found.channel.name, href: `../channels/${found.channel.id}` } : null;
    },
    emojiSrc: (id, animated) => `../cdn/emojis/${id}.${animated ? 'gif' : 'png'}?size=64`,
  };
}

function sidebar(view: View, current: string | null): string {
  const { guild, data } = view.ctx;
  const item = (channel: DemoChannel) => {
    if (channel.type === 4) return '';
    const status = botStatus(botPerms(view, channel));
    const flag = status.flag ? `<span class="flag${status.level === 'warn' ? ' warn' : ''}" title="${escapeHtml(status.text)}">${escapeHtml(status.flag)}</span>` : '';
    return `<li><a class="chan" href="../channels/${escapeHtml(channel.id)}"${channel.id === current ? ' aria-current="page"' : ''}><span class="hash" aria-hidden="true">#</span><span>${escapeHtml(channel.name)}</span>${flag}</a></li>`;
  };
  const groups = displayOrder(data.channels)
    .map(({ channel, children }) =>
      channel.type === 4
        ? `<h2 id="cat-${escapeHtml(channel.id)}">${escapeHtml(channel.name)}</h2><ul class="plain" aria-labelledby="cat-${escapeHtml(channel.id)}">${children.map(item).join('')}</ul>`
        : `<ul class="plain">${item(channel)}</ul>`,
    )
    .join('');
  return `<nav class="side" aria-label="Channels of ${escapeHtml(guild.name)}">
<a class="guild" href="../guilds/${escapeHtml(guild.id)}"><img src="${escapeHtml(iconSrc('../', guild, 64))}" alt="" width="28" height="28"><span>${escapeHtml(guild.name)}</span></a>
${groups || '<p class="empty">No channels.</p>'}
<p><a class="chan" href="../guilds">All demo servers</a></p>
</nav>`;
}

function emojiHtml(emojiOut: EmojiOut | undefined): string {
  if (!emojiOut) return '';
  if (emojiOut.id) return `<img class="emoji" src="../cdn/emojis/${escapeHtml(emojiOut.id)}.${emojiOut.animated ? 'gif' : 'png'}?size=64" alt=":${escapeHtml(emojiOut.name ?? 'emoji')}:" width="22" height="22">`;
  return emojiOut.name ? `<span class="emoji-text" aria-hidden="true">${escapeHtml(emojiOut.name)}</span>` : '';
}

function buttonHtml(buttonOut: ButtonOut): string {
  const inner = `${emojiHtml(buttonOut.emoji)}${buttonOut.label ? `<span>${escapeHtml(buttonOut.label)}</span>` : ''}`;
  const cls = `btn s${buttonOut.style}${buttonOut.disabled ? ' off' : ''}`;
  if (buttonOut.style === 5 && buttonOut.url && !buttonOut.disabled) {
    return `<a class="${cls}" href="${escapeHtml(buttonOut.url)}" rel="noopener noreferrer nofollow" target="_blank">${inner}<span aria-hidden="true">↗</span></a>`;
  }
  if (buttonOut.style === 6) return `<span class="${cls}">Premium · SKU ${escapeHtml(buttonOut.sku_id ?? '')}</span>`;
  return `<span class="${cls}" title="custom_id: ${escapeHtml(buttonOut.custom_id ?? '')}">${inner}</span>`;
}

const SELECT_KIND: Record<number, string> = { 3: 'Make a selection', 5: 'Select a user', 6: 'Select a role', 7: 'Select a user or role', 8: 'Select a channel' };

function selectHtml(selectOut: SelectOut): string {
  const options = (selectOut.options ?? [])
    .map(
      (selectOptionOut) =>
        `<li>${emojiHtml(selectOptionOut.emoji)}<span><span>${escapeHtml(selectOptionOut.label)}</span>${selectOptionOut.description ? `<span class="opt-desc">${escapeHtml(selectOptionOut.description)}</span>` : ''}</span></li>`,
    )
    .join('');
  return `<details class="select${selectOut.disabled ? ' off' : ''}"><summary>${escapeHtml(selectOut.placeholder ?? SELECT_KIND[selectOut.type] ?? 'Make a selection')}</summary>${
    options ? `<ul>${options}</ul>` : ''
  }</details>`;
}

function componentsHtml(rows: readonly ActionRowOut[]): string {
  if (!rows.length) return '';
  return `<div class="rows">${rows
    .map((r) => `<div class="row">${r.components.map((c) => (c.type === 2 ? buttonHtml(c) : selectHtml(c))).join('')}</div>`)
    .join('')}</div>`;
}

/** An embed's image: the sandbox's own images load; the CSP blocks others, which then show their address (alt). */
function imageHtml(url: string, cls: string): string {
  return `<div class="${cls}"><img src="${escapeHtml(url)}" alt="Image: ${escapeHtml(url)}"></div>`;
}

function embedHtml(embedOut: EmbedOut, md: MarkdownContext): string {
  const parts: string[] = [];
  if (embedOut.author) {
    const name = embedOut.author.url ? `<a href="${escapeHtml(embedOut.author.url)}" rel="noopener noreferrer nofollow" target="_blank">${escapeHtml(embedOut.author.name)}</a>` : escapeHtml(embedOut.author.name);
    parts.push(`<div class="embed-author">${embedOut.author.icon_url ? `<img src="${escapeHtml(embedOut.author.icon_url)}" alt="">` : ''}${name}</div>`);
  }
  if (embedOut.title) {
    const title = renderInline(embedOut.title, md);
    parts.push(`<div class="embed-title">${embedOut.url ? `<a href="${escapeHtml(embedOut.url)}" rel="noopener noreferrer nofollow" target="_blank">${title}</a>` : title}</div>`);
  }
  if (embedOut.description) parts.push(`<div class="embed-desc">${renderMarkdown(embedOut.description, md)}</div>`);
  if (embedOut.fields?.length) {
    parts.push(
      `<div class="fields">${embedOut.fields
        .map((f) => `<div class="field${f.inline ? ' inline' : ''}"><div class="field-name">${renderInline(f.name, md)}</div><div>${renderMarkdown(f.value, md)}</div></div>`)
        .join('')}</div>`,
    );
  }
  const main = `<div class="embed-main">${parts.join('')}</div>`;
  const thumb = embedOut.thumbnail ? imageHtml(embedOut.thumbnail.url, 'thumb') : '';
  const image = embedOut.image ? imageHtml(embedOut.image.url, 'embed-image') : '';
  const footerBits = [embedOut.footer ? escapeHtml(embedOut.footer.text) : '', embedOut.timestamp ? escapeHtml(timeText(Date.parse(embedOut.timestamp))) : ''].filter(Boolean).join(' • ');
  const footer = footerBits ? `<div class="embed-footer">${embedOut.footer?.icon_url ? `<img src="${escapeHtml(embedOut.footer.icon_url)}" alt="">` : ''}<span>${footerBits}</span></div>` : '';
  const colour = embedOut.color ? ` k-${colourHex(embedOut.color)}` : '';
  return `<article class="embed${colour}" aria-label="Embed${embedOut.title ? `: ${escapeHtml(embedOut.title)}` : ''}">${main}${thumb}${image}${footer}</article>`;
}

/** A message's files: images shown, the rest as links (signed links of the sandbox's CDN, fresh for the page). */
function filesHtml(view: View, message: StoredMessage): string {
  const files = message.attachments ?? [];
  if (files.length === 0) return '';
  const items = files.map((file) => {
    const { ex, is, hm } = signAttachment(message.channelId, file.id, file.filename, view.engine.now());
    const href = `../cdn/attachments/${message.channelId}/${file.id}/${encodeURIComponent(file.filename)}?ex=${ex}&is=${is}&hm=${hm}&`;
    const link = `<a href="${escapeHtml(href)}" rel="noopener noreferrer" target="_blank">${escapeHtml(file.filename)}</a> <span class="time">${escapeHtml(sizeText(file.size))}</span>`;
    return file.contentType.startsWith('image/') ? `<li><img src="${escapeHtml(href)}" alt="${escapeHtml(file.filename)}"><br>${link}</li>` : `<li>📎 ${link}</li>`;
  });
  return `<ul class="files plain" aria-label="Files">${items.join('')}</ul>`;
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function messageHtml(view: View, message: StoredMessage, md: MarkdownContext): string {
  const isBot = message.authorId === view.engine.options.clientId;
  const person = personOf(message.authorId) ?? view.engine.guilds.visitor(message.authorId);
  const avatar = avatarSrc('../', message.authorId, isBot ? null : (person?.avatar ?? null));
  const suppress = (message.flags & (1 << 2)) !== 0;
  return `<li class="msg" id="m-${escapeHtml(message.id)}">
<img class="avatar" src="${escapeHtml(avatar)}" alt="" width="40" height="40">
<div>
<div class="meta"><span class="name">${escapeHtml(displayName(view, message.authorId))}</span>${isBot ? '<span class="tag">APP</span>' : ''}<time class="time" datetime="${escapeHtml(discordTimestamp(message.createdAt))}">${escapeHtml(timeText(message.createdAt))}</time>${
    message.editedAt !== null ? `<span class="edited" title="${escapeHtml(timeText(message.editedAt))}">(edited)</span>` : ''
  }</div>
${message.content ? `<div class="content">${renderMarkdown(message.content, md)}</div>` : ''}
${suppress ? '' : message.embeds.map((e) => embedHtml(e, md)).join('')}
${filesHtml(view, message)}
${componentsHtml(message.components)}
</div>
</li>`;
}

/** Every colour a page may show: roles', and embeds' of these messages. */
function coloursOf(roles: readonly DemoRole[], messages: readonly StoredMessage[]): number[] {
  return [...roles.map((r) => r.color), ...messages.flatMap((m) => m.embeds.map((e) => e.color ?? 0))];
}

function channelPage(view: View, channel: DemoChannel): Page {
  const { guild, data } = view.ctx;
  const md = markdownContext(view);
  const messages = view.engine.guilds.list(channel.id);
  const status = botStatus(botPerms(view, channel));
  let main: string;
  if (channel.type === 4) {
    const children = data.channels.filter((c) => c.parentId === channel.id);
    main = `<div class="page"><p>A category. Its channels:</p><ul>${children.map((c) => `<li><a href="../channels/${escapeHtml(c.id)}">#${escapeHtml(c.name)}</a></li>`).join('')}</ul></div>`;
  } else {
    const list = messages.length
      ? `<ol class="messages" aria-label="Messages in #${escapeHtml(channel.name)}">${messages.map((m) => messageHtml(view, m, md)).join('\n')}</ol>`
      : `<p class="empty">No messages in #${escapeHtml(channel.name)} yet. What the bot posts here (POST /api/v10/channels/${escapeHtml(channel.id)}/messages) shows up on this page.</p>`;
    main = `<p class="notice ${status.level === 'ok' ? '' : status.level}" role="status">${escapeHtml(status.text)}</p>
${list}
<p class="composer">This is the sandbox's view of #${escapeHtml(channel.name)}: it shows what the bot and the members posted, and sends nothing.</p>`;
  }
  const body = `<div class="app">
${sidebar(view, channel.id)}
<main class="chat">
<header class="bar"><span class="hash" aria-hidden="true">#</span><h1>${escapeHtml(channel.name)}</h1>${channel.topic ? `<span class="topic">${renderInline(channel.topic, md)}</span>` : ''}${SANDBOX_BADGE}</header>
${main}
</main>
</div>`;
  return viewerPage(`#${channel.name} | ${guild.name} | Discord (sandbox)`, body, coloursOf(data.roles, messages));
}

function guildPage(view: View): Page {
  const { guild, data, ownerId } = view.ctx;
  const roleById = new Map(data.roles.map((r) => [r.id, r]));
  const roleChip = (r: DemoRole) => `<span class="chip${r.color ? ` k-${colourHex(r.color)}` : ''}"><span class="dot" aria-hidden="true"></span>${escapeHtml(r.name)}${r.bot ? ' (the bot)' : ''}</span>`;
  const channelRows = displayOrder(data.channels)
    .flatMap(({ channel, children }) => (channel.type === 4 ? [channel, ...children] : [channel]))
    .map((channel) => {
      if (channel.type === 4) return `<tr><th colspan="2" scope="rowgroup">${escapeHtml(channel.name.toUpperCase())}</th></tr>`;
      const status = botStatus(botPerms(view, channel));
      return `<tr><td><a href="../channels/${escapeHtml(channel.id)}">#${escapeHtml(channel.name)}</a></td><td class="st-${status.level}">${escapeHtml(status.text)}</td></tr>`;
    })
    .join('');
  const owner = personOf(ownerId);
  const members = [...data.members.map((m) => m.userId)]
    .map((id) => ({ id, member: memberOf(view.engine, view.ctx, id) }))
    .filter((x) => x.member !== null)
    .map(({ id, member }) => {
      const roles = member!.roles.flatMap((rid) => {
        const role = roleById.get(rid);
        return role ? [roleChip(role)] : [];
      });
      return `<tr><td>${escapeHtml(displayName(view, id))}${id === ownerId ? ' (owner)' : ''}</td><td><span class="chips">${roles.join('') || '<span class="chip">no role</span>'}</span></td></tr>`;
    })
    .join('');
  const body = `<div class="app">
${sidebar(view, null)}
<main class="chat">
<header class="bar"><h1>${escapeHtml(guild.name)}</h1>${SANDBOX_BADGE}</header>
<div class="page">
<p class="notice ${view.ctx.botIn ? '' : 'bad'}">${view.ctx.botIn ? 'The bot is in this server.' : 'The bot is not in this server: add it from the dashboard (Invite).'} Owner: ${escapeHtml(owner?.globalName ?? 'someone else')}.</p>
<h2>Channels and what the bot can do</h2>
<table class="tbl"><thead><tr><th scope="col">Channel</th><th scope="col">The bot</th></tr></thead><tbody>${channelRows}</tbody></table>
<h2>Roles</h2>
<ul class="chips">${sortedRoles(data.roles)
    .reverse()
    .map((r) => `<li>${roleChip(r)}</li>`)
    .join('')}</ul>
<h2>Emojis</h2>
${
  data.emojis.length
    ? `<ul class="chips">${data.emojis
        .map((e) => `<li class="chip">${emojiHtml({ id: e.id, name: e.name, animated: e.animated })}:${escapeHtml(e.name)}:</li>`)
        .join('')}</ul>`
    : '<p class="empty">No custom emojis.</p>'
}
<h2>Members</h2>
<table class="tbl"><thead><tr><th scope="col">Member</th><th scope="col">Roles</th></tr></thead><tbody>${members}</tbody></table>
<h2>The bot's ephemeral replies (only the member saw them)</h2>
${ephemeralHtml(view)}
</div>
</main>
</div>`;
  return viewerPage(`${guild.name} | Discord (sandbox)`, body, data.roles.map((r) => r.color));
}

/** The demo bot's ephemeral replies in this server (a blocked member's refused ticket): only that member saw them in Discord. */
function ephemeralHtml(view: View): string {
  const refusals = (runningDesk()?.refusals() ?? []).filter((refusal) => refusal.serverId === view.ctx.guild.id).reverse();
  if (refusals.length === 0) return '<p class="empty">None: the bot answers a member who may not open a ticket (the blocklist) here, visible to them only.</p>';
  const md = markdownContext(view);
  const rows = refusals.map((refusal) => `<tr><td>${escapeHtml(timeText(Date.parse(refusal.at)))}</td><td>${escapeHtml(displayName(view, refusal.userId))}</td><td>${renderMarkdown(refusal.message, md)}</td></tr>`);
  return `<table class="tbl"><thead><tr><th scope="col">When</th><th scope="col">To</th><th scope="col">The bot's reply</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function indexPage(engine: SandboxEngine): Page {
  const items = Object.values(DEMO_GUILDS)
    .map((guild) => {
      const botIn = engine.store.botGuilds.has(guild.id);
      return `<li><a class="server" href="guilds/${escapeHtml(guild.id)}"><img src="${escapeHtml(iconSrc('', guild, 128))}" alt="" width="48" height="48"><span>${escapeHtml(guild.name)}<small>${botIn ? 'The bot is in it' : 'Without the bot'}</small></span></a></li>`;
    })
    .join('');
  const body = `<main class="page">
<header class="bar"><h1>The demo servers</h1>${SANDBOX_BADGE}</header>
<p>Open a server to see its channels, and a channel to see what the bot posted there.</p>
<ul class="servers">${items}</ul>
</main>`;
  return viewerPage('Demo servers | Discord (sandbox)', body);
}

export function sandboxPages(app: FastifyInstance, engine: SandboxEngine): void {
  const send = (reply: FastifyReply, status: number, p: Page) => sendPage(reply, status, p);

  app.get('/guilds', async (_req, reply) => send(reply, 200, indexPage(engine)));

  app.get('/guilds/:guildId', async (req, reply) => {
    const { guildId } = req.params as { guildId: string };
    const ctx = guildContext(engine, guildId);
    if (!ctx) return send(reply, 404, notFoundPage('Unknown server'));
    return send(reply, 200, guildPage({ engine, ctx }));
  });

  app.get('/channels/:channelId', async (req, reply) => {
    const { channelId } = req.params as { channelId: string };
    const found = SNOWFLAKE.test(channelId) ? engine.guilds.channel(channelId) : undefined;
    const ctx = found ? guildContext(engine, found.guildId) : null;
    if (!found || !ctx) return send(reply, 404, notFoundPage('Unknown channel'));
    return send(reply, 200, channelPage({ engine, ctx }, found.channel));
  });
}
