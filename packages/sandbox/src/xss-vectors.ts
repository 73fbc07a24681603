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

/** Where a vector lands in a v2 transcript. */
export const V2_PLACES = [
  'content',
  'username',
  'displayName',
  'embed.title',
  'embed.description',
  'embed.field.name',
  'embed.field.value',
  'embed.footer',
  'embed.author',
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

/** Every template with its own flag number (1-based). */
export function vectors(): XssVector[] {
  return TEMPLATES.map((template, i) => ({ n: i + 1, payload: template.replaceAll('$', flag(i + 1)) }));
}

/** The corpus size: templates × the places they are tried in a v2 transcript. */
export function v2VectorCount(): number {
  return TEMPLATES.length * V2_PLACES.length;
}
