/**
 * XSS vectors for the transcript viewers: each tries to run `top.__xss = <n>` (or to navigate,
 * load a frame, or style the page) from where transcript content lands — message text (Discord
 * markdown), names, embed fields, links, attachment names, legacy HTML. A test puts them in a
 * transcript, opens it in Chromium and checks that the flag was never set, no dialog opened and the
 * page did not navigate. Sources: the classic filter-evasion lists (tags, event handlers, URL
 * schemes, encodings, mutation tricks), written here as data.
 */

/** The statement every vector tries to run. `n` tells which vector fired. */
export const flag = (n: number) => `top.__xss=${n}`;

/** Payload templates: `$` is replaced by the flag statement of the vector. */
const TEMPLATES: readonly string[] = [
  '<script>$</script>',
  '<ScRiPt>$</sCrIpT>',
  '<script src="data:text/javascript,$"></script>',
  '<img src=x onerror="$">',
  '<img src="x" onerror=$//',
  '<IMG SRC=/ onerror="$"></img>',
  '<svg onload="$">',
  '<svg><script>$</script></svg>',
  '<svg><animate onbegin="$" attributeName=x dur=1s>',
  '<svg><a xlink:href="javascript:$"><text x=20 y=20>click</text></a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror="$">',
  '<body onload="$">',
  '<iframe src="javascript:$"></iframe>',
  '<iframe srcdoc="<script>$</script>"></iframe>',
  '<object data="javascript:$"></object>',
  '<embed src="javascript:$">',
  '<a href="javascript:$">link</a>',
  '<a href="JaVaScRiPt:$">link</a>',
  '<a href="&#106;avascript:$">link</a>',
  '<a href="java\tscript:$">link</a>',
  '<a href=" javascript:$">link</a>',
  '<a href="data:text/html,<script>$</script>">link</a>',
  '<form action="javascript:$"><button>go</button></form>',
  '<input autofocus onfocus="$">',
  '<select autofocus onfocus="$"></select>',
  '<textarea autofocus onfocus="$"></textarea>',
  '<details open ontoggle="$">',
  '<video><source onerror="$"></video>',
  '<audio src=x onerror="$"></audio>',
  '<marquee onstart="$">x</marquee>',
  '<div style="background:url(javascript:$)">x</div>',
  '<div onmouseover="$" style="position:fixed;inset:0">x</div>',
  '<style>@import "javascript:$";</style>',
  '<style>*{background:red!important}</style>',
  '<link rel="stylesheet" href="javascript:$">',
  '<meta http-equiv="refresh" content="0;url=javascript:$">',
  '<base href="javascript:$//">',
  '"><script>$</script>',
  "'><img src=x onerror=$>",
  '</textarea><script>$</script>',
  '</title><script>$</script>',
  '<noscript><p title="</noscript><img src=x onerror=$>">',
  '<template><script>$</script></template><img src=x onerror=$>',
  '{{constructor.constructor("$")()}}',
  // A template literal's placeholder, in case any layer evaluates one.
  `$${'{'}$}`,
  '[click](javascript:$)',
  '[click](JAVASCRIPT:$)',
  '[click](javascript&#58;$)',
  '[click](data:text/html;base64,PHNjcmlwdD50b3AuX194c3M9MTwvc2NyaXB0Pg==)',
  '<javascript:$>',
  '![img](x" onerror="$)',
  '[a](https://example.com" onclick="$)',
  '`<img src=x onerror=$>`',
  '```html\n<script>$</script>\n```',
  '||<img src=x onerror=$>||',
  '> <svg onload=$>',
  '# <img src=x onerror=$>',
  '<@1"><img src=x onerror=$>>',
  '<#1"><svg onload=$>>',
  '<t:1:R"><img src=x onerror=$>>',
];

/**
 * The tag × event matrix (as in the public XSS cheat sheets): each tag with each way an event
 * handler fires by itself — focus (autofocus), focus-in, a CSS animation starting and ending, the
 * pointer over a full-page element — and a click.
 */
const MATRIX_TAGS = ['a', 'abbr', 'b', 'div', 'span', 'p', 'img', 'input', 'select', 'textarea', 'button', 'details', 'video', 'audio', 'svg', 'xss', 'iframe', 'object', 'marquee', 'table', 'td', 'section', 'article', 'label', 'output', 'h1', 'li', 'code', 'font'] as const;
const MATRIX_EVENTS = [
  'autofocus tabindex=1 onfocus="$"',
  'autofocus tabindex=1 onfocusin="$"',
  'style="animation-name:tk-x;animation-duration:1ms" onanimationstart="$"',
  'style="animation-name:tk-x;animation-duration:1ms" onanimationend="$"',
  'style="position:fixed;inset:0;display:block" onmouseover="$" onclick="$"',
] as const;
const MATRIX: readonly string[] = MATRIX_TAGS.flatMap((tag) =>
  MATRIX_EVENTS.map((event) => `${event.includes('animation') ? '<style>@keyframes tk-x{}</style>' : ''}<${tag} ${event}>x</${tag}>`),
);

/** Every payload template: the hand-written ones and the matrix. */
const ALL_TEMPLATES: readonly string[] = [...TEMPLATES, ...MATRIX];

/** Where a vector lands in a v2 transcript. */
export const V2_PLACES = [
  'content',
  'username',
  'displayName',
  'embed.title',
  'embed.description',
  'embed.field.name',
  'embed.field.value',
  'embed.field.inline',
  'embed.footer',
  'embed.author',
  'embed.author.url',
  'embed.author.icon',
  'embed.url',
  'attachment.filename',
  'sticker.name',
  'role.name',
  'channel.name',
] as const;
export type V2Place = (typeof V2_PLACES)[number];

export interface XssVector {
  n: number;
  payload: string;
}

/**
 * Hostile addresses for an embed's links and pictures (the title's link, the author's link and
 * picture, the image, the thumbnail, the footer's icon): script and data schemes however they are
 * written, and http(s) addresses that try to break out of an attribute. None may become a script
 * link or load a picture from elsewhere; an http(s) one may stay a plain link. `$` is the flag
 * statement; vector `n` takes template `n % length`.
 */
const URL_TEMPLATES: readonly string[] = [
  'javascript:$',
  'JaVaScRiPt:$',
  ' javascript:$',
  'java\tscript:$',
  'java\nscript:$',
  '\u0000javascript:$',
  '&#106;avascript:$',
  'javascript&colon;$',
  'data:text/html,<script>$</script>',
  'data:text/html;base64,PHNjcmlwdD50b3AuX194c3M9MTwvc2NyaXB0Pg==',
  'vbscript:$',
  'https://example.com/" onmouseover="$',
  'https://example.com/"><script>$</script>',
  "https://example.com/'onfocus='$'autofocus='",
];

/** Vector `n`'s hostile address for an embed's links. */
function hostileUrl(count: number): string {
  return URL_TEMPLATES[count % URL_TEMPLATES.length]!.replaceAll('$', flag(count));
}

/**
 * Vector `n`'s hostile address for an embed's pictures: the script and data ones only. An http(s)
 * picture from a host outside the page's `img-src` is refused by the policy, which the end-to-end
 * suite counts as a violation of its own; the attribute break-outs are tried in the links.
 */
const PICTURE_TEMPLATES = URL_TEMPLATES.filter((u) => !u.startsWith('https:'));
function hostilePictureUrl(count: number): string {
  return PICTURE_TEMPLATES[count % PICTURE_TEMPLATES.length]!.replaceAll('$', flag(count));
}

/** Every template with its own flag number (1-based). */
export function vectors(): XssVector[] {
  return ALL_TEMPLATES.map((template, i) => ({ n: i + 1, payload: template.replaceAll('$', flag(i + 1)) }));
}

/** The corpus size: templates × the places they are tried in a v2 transcript. */
export function v2VectorCount(): number {
  return ALL_TEMPLATES.length * V2_PLACES.length;
}

/** What `xssTranscript` needs to know of where it is uploaded. */
export interface XssTranscriptOptions {
  server: { id: string; name: string };
  /** The ticket's opener (a real user of the demo, so "Your tickets" and the viewer's access work). */
  openerId: string;
  panelId: string | null;
}

const snowflake = (base: bigint, n: number) => String(base + BigInt(n));
const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/**
 * A v2 transcript (packages/api-contract TranscriptV2) with every vector in every place of
 * V2_PLACES: message `n` is by a user whose names are vector `n`, mentions a role and a channel
 * named after it, and carries it in an embed (title, description, a field and three inline ones,
 * footer, author with its link and picture, the title's link: hostile addresses of `hostileUrl` and
 * `hostilePictureUrl`),
 * an attachment's name and link, and a sticker's name. Names are cut to the contract's lengths.
 * Each message starts with `vector <n>` so a test can find it.
 */
export function xssTranscript(options: XssTranscriptOptions) {
  const all = vectors();
  const start = Date.UTC(2026, 0, 5, 9, 0, 0);
  const at = (i: number) => new Date(start + i * 60_000).toISOString();
  const userId = (n: number) => snowflake(1850000000000000000n, n);
  const roleId = (n: number) => snowflake(1860000000000000000n, n);
  const channelId = (n: number) => snowflake(1870000000000000000n, n);
  return {
    version: 2 as const,
    server: { id: options.server.id, name: options.server.name, iconUrl: null },
    channel: { id: snowflake(1870000000000000000n, 0), name: 'xss-corpus' },
    ticket: { id: 'xss-corpus', number: 9999, panelId: options.panelId, openerId: options.openerId, openedAt: at(0), closedAt: at(all.length + 1), closedBy: options.openerId, reason: all[0]!.payload },
    users: [
      { id: options.openerId, username: 'opener', displayName: null, avatarUrl: null, bot: false, staff: false, colour: null },
      ...all.map((v) => ({ id: userId(v.n), username: cut(v.payload, 64), displayName: cut(v.payload, 64), avatarUrl: `javascript:${flag(v.n)}`, bot: v.n % 2 === 0, staff: v.n % 3 === 0, colour: null })),
    ],
    roles: all.map((v) => ({ id: roleId(v.n), name: cut(v.payload, 100), colour: null })),
    channels: all.map((v) => ({ id: channelId(v.n), name: cut(v.payload, 100) })),
    messages: all.map((xssVector, index) => ({
      id: snowflake(1880000000000000000n, xssVector.n),
      authorId: userId(xssVector.n),
      content: cut(`vector ${xssVector.n} ${xssVector.payload} <@${userId(xssVector.n)}> <@&${roleId(xssVector.n)}> <#${channelId(xssVector.n)}>`, 4000),
      createdAt: at(index + 1),
      editedAt: null,
      system: null,
      replyTo: index > 0 ? snowflake(1880000000000000000n, xssVector.n - 1) : null,
      embeds: [
        {
          title: cut(xssVector.payload, 256),
          description: xssVector.payload,
          url: hostileUrl(xssVector.n),
          colour: null,
          author: { name: cut(xssVector.payload, 256), url: hostileUrl(xssVector.n + 1), iconUrl: hostilePictureUrl(xssVector.n) },
          fields: [
            { name: cut(xssVector.payload, 256), value: cut(xssVector.payload, 1024), inline: false },
            // Inline ones side by side (their own layout path), the vector in the name, the value, both.
            { name: cut(xssVector.payload, 256), value: `vector ${xssVector.n} inline`, inline: true },
            { name: `vector ${xssVector.n} inline`, value: cut(xssVector.payload, 1024), inline: true },
            { name: cut(xssVector.payload, 256), value: cut(`[link](${hostileUrl(xssVector.n)}) ${xssVector.payload}`, 1024), inline: true },
          ],
          footer: { text: xssVector.payload, iconUrl: hostilePictureUrl(xssVector.n + 1) },
          imageUrl: hostilePictureUrl(xssVector.n + 2),
          thumbnailUrl: hostilePictureUrl(xssVector.n + 3),
          timestamp: null,
        },
      ],
      attachments: [{ id: snowflake(1890000000000000000n, xssVector.n), filename: cut(xssVector.payload, 255), contentType: 'text/html', size: xssVector.payload.length, url: `javascript:${flag(xssVector.n)}`, width: null, height: null }],
      reactions: [{ emoji: { name: cut(xssVector.payload, 64) }, count: 1 }],
      stickers: [{ id: snowflake(1840000000000000000n, xssVector.n), name: cut(xssVector.payload, 64), format: 'png' as const }],
    })),
  };
}
