/**
 * A Discord message as Discord shows it, from the payload the bot sends (`buildPanelMessage`,
 * `buildMultiPanelMessage` of the contract: the same function the API posts with): the bot's name,
 * content, the embed (colour bar, author, title and its link, description, fields, thumbnail, image,
 * footer) and the components (buttons in their style colours, a select menu that opens). Light and
 * dark Discord themes. The transcript viewer draws a transcript's embeds with the same `Embed`.
 */

import type { DiscordActionRow, DiscordButton, DiscordEmbed, DiscordMessagePayload, DiscordPartialEmoji, DiscordStringSelect } from '@tickety/api-contract';
import { cx } from '@tickety/ui';
import ChevronDown from 'lucide-react/icons/chevron-down';
import ImageOff from 'lucide-react/icons/image-off';
import { type CSSProperties, type ReactNode, useState } from 'react';
import { useT } from '../../lib/i18n';
import { DiscordThemeContext, InlineMarkdown, MarkdownView, useDiscordNames } from './markdown-view';

export type DiscordTheme = 'dark' | 'light';

/**
 * Discord's own colours (2024 themes), as the variables the preview's classes read. Where one of
 * Discord's text colours falls short of 4.5:1 contrast on its background it is one step darker
 * (light) or lighter (dark): the dark muted text, the light link and mention, the required mark.
 */
const THEMES: Record<DiscordTheme, Record<string, string>> = {
  dark: {
    '--d-bg': '#313338',
    '--d-text': '#dbdee1',
    '--d-header': '#f2f3f5',
    '--d-muted': '#9ba1ab',
    '--d-embed': '#2b2d31',
    '--d-embed-border': '#1e1f22',
    '--d-link': '#00a8fc',
    '--d-code-bg': '#1e1f22',
    '--d-code-border': '#1e1f22',
    '--d-quote': '#4e5058',
    '--d-mention-bg': 'rgba(88, 101, 242, 0.3)',
    '--d-mention-text': '#c9cdfb',
    '--d-spoiler': '#1e1f22',
    '--d-spoiler-shown': 'rgba(255, 255, 255, 0.1)',
    '--d-select-bg': '#1e1f22',
    '--d-select-border': '#1e1f22',
    '--d-select-menu': '#2b2d31',
    '--d-secondary': '#4e5058',
    '--d-input-bg': '#1e1f22',
    '--d-modal': '#313338',
    '--d-modal-footer': '#2b2d31',
    '--d-required': '#f87f82',
  },
  light: {
    '--d-bg': '#ffffff',
    '--d-text': '#313338',
    '--d-header': '#060607',
    '--d-muted': '#5c5e66',
    '--d-embed': '#f2f3f5',
    '--d-embed-border': '#e3e5e8',
    '--d-link': '#0062d1',
    '--d-code-bg': '#e3e5e8',
    '--d-code-border': '#d4d7dc',
    '--d-quote': '#c4c9ce',
    '--d-mention-bg': 'rgba(88, 101, 242, 0.15)',
    // Discord's #505cdc reads at 4.0:1 on its pill; one step darker reaches AA (4.8:1).
    '--d-mention-text': '#4752c4',
    '--d-spoiler': '#c4c9ce',
    '--d-spoiler-shown': 'rgba(0, 0, 0, 0.1)',
    '--d-select-bg': '#ebedef',
    '--d-select-border': '#e3e5e8',
    '--d-select-menu': '#ffffff',
    '--d-secondary': '#6d6f78',
    '--d-input-bg': '#ebedef',
    '--d-modal': '#ffffff',
    '--d-modal-footer': '#f2f3f5',
    '--d-required': '#c5303a',
  },
};

/** Button colours by Discord's style number (1 primary, 2 secondary, 3 success, 4 danger, 5 link). */
const BUTTON_BG: Record<number, string> = { 1: '#5865f2', 2: 'var(--d-secondary)', 3: '#248046', 4: '#da373c', 5: 'var(--d-secondary)' };

/** The surface a Discord preview draws on: the theme's colours and Discord's type. */
export function DiscordSurface({ theme, children, className }: { theme: DiscordTheme; children: ReactNode; className?: string }) {
  return (
    <div
      className={cx('overflow-hidden rounded-lg bg-(--d-bg) text-[0.9375rem] leading-[1.375] text-(--d-text) [font-family:"gg_sans","Noto_Sans",ui-sans-serif,system-ui,sans-serif]', className)}
      style={THEMES[theme] as CSSProperties}
    >
      <DiscordThemeContext.Provider value={theme}>{children}</DiscordThemeContext.Provider>
    </div>
  );
}

function isHttpUrl(url: string | undefined): url is string {
  return typeof url === 'string' && /^https?:\/\/\S+$/i.test(url);
}

/**
 * A link of an embed (its title's, its author's) as an address the page may link to: an absolute
 * http(s) URL, as the browser parses it, else null (shown as text). `javascript:`, `data:` and the
 * like, however written, never become a link.
 */
export function embedLink(url: string | null | undefined): string | null {
  if (typeof url !== 'string' || !isHttpUrl(url)) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

type EmbedField = NonNullable<DiscordEmbed['fields']>[number];

/**
 * How many columns (of 12) each field spans, as Discord lays them out: a field that is not inline
 * has a row of its own; consecutive inline fields share a row, up to 3 (2 beside a thumbnail).
 */
export function fieldSpans(fields: readonly EmbedField[], thumbnail: boolean): number[] {
  const perRow = thumbnail ? 2 : 3;
  const rows: number[][] = [];
  let row: number[] | null = null;
  fields.forEach((field, i) => {
    if (field.inline && row && row.length < perRow) row.push(i);
    else {
      row = [i];
      rows.push(row);
      if (!field.inline) row = null;
    }
  });
  const spans: number[] = [];
  for (const r of rows) for (const i of r) spans[i] = 12 / r.length;
  return spans;
}

/**
 * A field spanning 12, 6 or 4 columns, as literal classes (Tailwind finds them in the source). In a
 * narrow embed (a phone) inline fields share a row by two, and below 15rem each has its own: three
 * columns of a few words each would break every word.
 */
const FIELD_SPAN: Record<number, string> = {
  12: 'col-span-12',
  6: 'col-span-12 @min-[15rem]:col-span-6',
  4: 'col-span-12 @min-[15rem]:col-span-6 @sm:col-span-4',
};

/** The author's little picture; nothing when it does not load. */
function AuthorIcon({ url }: { url: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === url) return null;
  return <img src={url} alt="" referrerPolicy="no-referrer" loading="lazy" onError={() => setFailed(url)} className="size-6 shrink-0 rounded-full object-cover" />;
}

/** The embed's fields: name and value pairs, inline ones side by side. */
function Fields({ fields, thumbnail }: { fields: readonly EmbedField[]; thumbnail: boolean }) {
  const spans = fieldSpans(fields, thumbnail);
  return (
    <dl className="@container mt-2 grid grid-cols-12 gap-x-4 gap-y-2">
      {fields.map((field, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fields have no id; their order is fixed
        <div key={i} className={cx('min-w-0', FIELD_SPAN[spans[i]!] ?? 'col-span-12')}>
          <dt className="mb-0.5 text-sm leading-[1.125rem] font-semibold break-words text-(--d-header)">
            <InlineMarkdown text={field.name} />
          </dt>
          <dd className="text-sm leading-[1.125rem] break-words">
            <MarkdownView text={field.value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A picture from the user's link. The dashboard's content policy may not allow the host (Discord
 * proxies every embed image; we do not yet), or the link may be wrong: then a placeholder says so.
 */
function EmbedImage({ url, className, alt }: { url: string; className: string; alt: string }) {
  const t = useT();
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === url) {
    let host = url;
    try {
      host = new URL(url).host;
    } catch {
      // keep the text
    }
    return (
      <span className={cx('flex flex-col items-center justify-center gap-1 rounded-[4px] border border-dashed border-(--d-quote) p-2 text-center text-xs text-(--d-muted)', className)}>
        <ImageOff aria-hidden="true" className="size-5" />
        <span>{t('preview.imageUnavailable', { host })}</span>
      </span>
    );
  }
  return <img src={url} alt={alt} referrerPolicy="no-referrer" loading="lazy" onError={() => setFailed(url)} className={cx('rounded-[4px] object-contain', className)} />;
}

export function Embed({ embed }: { embed: DiscordEmbed }) {
  const t = useT();
  const colour = embed.color === undefined ? 'var(--d-embed-border)' : `#${embed.color.toString(16).padStart(6, '0')}`;
  const thumbnail = isHttpUrl(embed.thumbnail?.url) ? embed.thumbnail.url : null;
  const image = isHttpUrl(embed.image?.url) ? embed.image.url : null;
  const titleLink = embedLink(embed.url);
  const author = embed.author?.name ? embed.author : null;
  const authorLink = embedLink(author?.url);
  const authorIcon = isHttpUrl(author?.icon_url) ? author.icon_url : null;
  const fields = (embed.fields ?? []).filter((f) => f.name !== '' || f.value !== '');
  return (
    <div className="mt-1 grid max-w-[32.5rem] rounded-[4px] border-l-4 bg-(--d-embed)" style={{ borderLeftColor: colour }}>
      <div className={cx('grid gap-x-4 pt-0.5 pr-4 pb-4 pl-3', thumbnail ? 'grid-cols-[minmax(0,1fr)_auto]' : 'grid-cols-1')}>
        <div className="min-w-0">
          {author ? (
            <div className="mt-2 flex min-w-0 items-center gap-2">
              {authorIcon ? <AuthorIcon url={authorIcon} /> : null}
              {authorLink ? (
                <a href={authorLink} target="_blank" rel="noopener noreferrer nofollow" className="min-w-0 text-sm font-semibold break-words text-(--d-header) hover:underline">
                  {author.name}
                </a>
              ) : (
                <span className="min-w-0 text-sm font-semibold break-words text-(--d-header)">{author.name}</span>
              )}
            </div>
          ) : null}
          {embed.title ? (
            <div className="mt-2 text-base leading-[1.375] font-semibold break-words text-(--d-header)">
              {titleLink ? (
                <a href={titleLink} target="_blank" rel="noopener noreferrer nofollow" className="text-(--d-link) hover:underline">
                  <InlineMarkdown text={embed.title} links={false} />
                </a>
              ) : (
                <InlineMarkdown text={embed.title} />
              )}
            </div>
          ) : null}
          {embed.description ? (
            <div className="mt-2 text-sm leading-[1.125rem]">
              <MarkdownView text={embed.description} />
            </div>
          ) : null}
          {fields.length > 0 ? <Fields fields={fields} thumbnail={thumbnail !== null} /> : null}
        </div>
        {thumbnail ? <EmbedImage url={thumbnail} alt={t('preview.thumbnailAlt')} className="mt-2 size-20 max-h-20 max-w-20" /> : null}
        {image ? <EmbedImage url={image} alt={t('preview.imageAlt')} className={cx('mt-4 max-h-[18.75rem] w-full max-w-[25rem]', thumbnail && 'col-span-2')} /> : null}
        {embed.footer?.text ? <div className={cx('mt-2 text-xs leading-4 font-medium break-words text-(--d-text)', thumbnail && 'col-span-2')}>{embed.footer.text}</div> : null}
      </div>
    </div>
  );
}

function Emoji({ emoji, className }: { emoji: DiscordPartialEmoji; className?: string }) {
  const names = useDiscordNames();
  if (emoji.id) return <img src={names.emojiUrl(emoji.id, emoji.animated ?? false)} alt={`:${emoji.name ?? ''}:`} className={cx('size-[1.125rem] object-contain', className)} />;
  return <span className={cx('text-[1.125rem] leading-none', className)}>{emoji.name}</span>;
}

function ButtonPreview({ button }: { button: DiscordButton }) {
  return (
    <span
      className="inline-flex h-8 max-w-full min-w-[3.75rem] items-center justify-center gap-1.5 rounded-[8px] px-4 text-sm leading-4 font-medium text-white"
      style={{ backgroundColor: BUTTON_BG[button.style] }}
    >
      {button.emoji ? <Emoji emoji={button.emoji} /> : null}
      {button.label ? <span className="truncate">{button.label}</span> : null}
    </span>
  );
}

function SelectPreview({ select }: { select: DiscordStringSelect }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <div className="w-full max-w-[25rem]">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="flex h-10 w-full items-center justify-between gap-2 rounded-[4px] border border-(--d-select-border) bg-(--d-select-bg) px-3 text-left text-sm text-(--d-muted)"
      >
        <span className="truncate">{select.placeholder ?? t('preview.selectDefault')}</span>
        <ChevronDown aria-hidden="true" className={cx('size-5 shrink-0 transition', open && 'rotate-180')} />
      </button>
      {open ? (
        <ul className="mt-1 overflow-hidden rounded-[4px] border border-(--d-select-border) bg-(--d-select-menu) py-1 text-sm shadow">
          {select.options.map((option) => (
            <li key={option.value} className="flex items-center gap-2 px-3 py-2 text-(--d-text)">
              {option.emoji ? <Emoji emoji={option.emoji} /> : null}
              <span className="min-w-0">
                <span className="block truncate">{option.label}</span>
                {option.description ? <span className="block truncate text-xs text-(--d-muted)">{option.description}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function Rows({ rows }: { rows: DiscordActionRow[] }) {
  return (
    <div className="mt-1 space-y-2 py-0.5">
      {rows.map((row, rowIndex) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
        <div key={rowIndex} className="flex flex-wrap gap-2">
          {row.components.map((component, column) =>
            component.type === 2 ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: components are positional
              <ButtonPreview key={column} button={component} />
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: components are positional
              <SelectPreview key={column} select={component} />
            ),
          )}
        </div>
      ))}
    </div>
  );
}

/** The bot's message: its avatar and name, then content, embeds and components. */
export function MessagePreview({ payload, botName }: { payload: DiscordMessagePayload; botName: string }) {
  const t = useT();
  return (
    <div className="flex gap-4 px-4 py-3">
      <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-600 text-lg font-semibold text-white">
        {botName.charAt(0).toUpperCase()}
      </span>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-1.5 leading-[1.375]">
          <span className="font-medium text-(--d-header)">{botName}</span>
          <span className="rounded-[3px] bg-[#5865f2] px-1 text-[0.625rem] leading-[0.9375rem] font-semibold text-white">{t('preview.app')}</span>
          <span className="text-xs text-(--d-muted)">{t('preview.today')}</span>
        </p>
        {payload.content ? (
          <div className="text-(--d-text)">
            <MarkdownView text={payload.content} />
          </div>
        ) : null}
        {(payload.embeds ?? []).map((embed, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: embeds are positional
          <Embed key={index} embed={embed} />
        ))}
        {payload.components && payload.components.length > 0 ? <Rows rows={payload.components} /> : null}
      </div>
    </div>
  );
}
