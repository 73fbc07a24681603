import type { TranscriptMessage, TranscriptV2 } from '@tickety/api-contract';
import { buildUrl, formatDateTime } from '@tickety/shared';
import { cx } from '@tickety/ui';
import LinkIcon from 'lucide-react/icons/link';
import Paperclip from 'lucide-react/icons/paperclip';
import { useState } from 'react';
import { useT } from './i18n';
import { MarkdownView } from './markdown-view';
import { Embed } from './message-preview';
import { formatBytes, isOwnFile, type MessageLookup } from './message-model';

export type Users = ReadonlyMap<string, TranscriptV2['users'][number]>;

/**
 * A message rendered for the downloaded, standalone HTML file rather than the page: no buttons (the
 * file runs no script), replies are links to `#m-<id>`, pictures are the data URIs fetched for it
 * (anything else links to this site by its full address).
 */
export interface FileMode {
  images: ReadonlyMap<string, string>;
  origin: string;
}

function colourOf(colour: number | null): string | undefined {
  return colour === null ? undefined : `#${colour.toString(16).padStart(6, '0')}`;
}

/**
 * The author's picture from Discord's CDN (what the page's policy lets load; an http(s) link only),
 * else, and in the downloaded file, their initial.
 */
function Avatar({ url, name }: { url: string | null; name: string }) {
  const [failed, setFailed] = useState(false);
  if (url && /^https?:\/\//i.test(url) && !failed) {
    return <img src={url} alt="" aria-hidden="true" referrerPolicy="no-referrer" loading="lazy" onError={() => setFailed(true)} className="size-9 rounded-full bg-(--d-embed) object-cover" />;
  }
  return (
    <span aria-hidden="true" className="flex size-9 items-center justify-center rounded-full bg-[#5865f2] text-sm font-semibold text-white">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/** One message as Discord shows it (or a system line); hostile text stays text. */
export function Message({
  message,
  grouped,
  users,
  byId,
  current = false,
  hit = false,
  onJump,
  file,
  deleted = false,
}: {
  message: TranscriptMessage;
  grouped: boolean;
  users: Users;
  byId: MessageLookup;
  current?: boolean;
  hit?: boolean;
  onJump?: (id: string) => void;
  file?: FileMode;
  /** Deleted in Discord (a live ticket): the author and time, and a note instead of the content. */
  deleted?: boolean;
}) {
  const t = useT();
  const author = users.get(message.authorId);
  const name = author?.displayName ?? author?.username ?? message.authorId;
  const when = formatDateTime(message.createdAt);
  if (message.system) {
    return (
      <div id={`m-${message.id}`} className="flex items-center gap-2 px-4 py-1 text-sm text-(--d-muted)">
        <span aria-hidden="true">→</span>
        <span>{t(`discordMessage.system.${message.system}`, { name })}</span>
        <time dateTime={message.createdAt} className="text-xs">
          {when}
        </time>
      </div>
    );
  }
  const reply = message.replyTo ? byId.get(message.replyTo) : undefined;
  const replyBody = reply ? (
    <>
      ↱ <span className="font-semibold">{users.get(reply.authorId)?.displayName ?? users.get(reply.authorId)?.username ?? reply.authorId}</span>{' '}
      <span className="truncate">{reply.content.slice(0, 100)}</span>
    </>
  ) : null;
  const replyClass = 'mb-1 ml-12 flex max-w-full items-center gap-1 truncate text-left text-xs text-(--d-muted) hover:underline';
  const ownUrl = (url: string) => (file ? new URL(buildUrl(url), file.origin).href : buildUrl(url));
  return (
    <article
      id={`m-${message.id}`}
      aria-label={t('discordMessage.messageBy', { name, when })}
      className={cx('group relative px-4', grouped ? 'py-0.5' : 'pt-3 pb-0.5', hit && 'shadow-[inset_3px_0_0_#fbbf24]', current && 'ring-2 ring-amber-400 ring-inset')}
    >
      {reply && file ? (
        <a href={`#m-${reply.id}`} className={replyClass}>
          {replyBody}
        </a>
      ) : reply ? (
        <button type="button" onClick={() => onJump?.(reply.id)} className={replyClass}>
          {replyBody}
        </button>
      ) : null}
      <div className="flex gap-3">
        <div className="w-9 shrink-0">
          {grouped ? null : <Avatar url={file ? null : (author?.avatarUrl ?? null)} name={name} />}
        </div>
        <div className="min-w-0 flex-1">
          {grouped ? null : (
            <div className="flex flex-wrap items-baseline gap-x-2">
              <span className="font-medium" style={{ color: colourOf(author?.colour ?? null) ?? 'var(--d-header)' }}>
                {name}
              </span>
              {author?.bot ? <span className="rounded bg-[#5865f2] px-1 text-[10px] font-semibold text-white">{t('discordMessage.bot')}</span> : null}
              {author?.staff ? <span className="rounded bg-emerald-700 px-1 text-[10px] font-semibold text-white">{t('discordMessage.staff')}</span> : null}
              <time dateTime={message.createdAt} className="text-xs text-(--d-muted)">
                {when}
              </time>
            </div>
          )}
          {deleted ? (
            <p className="text-sm italic text-(--d-muted)">{t('discordMessage.deleted')}</p>
          ) : null}
          {!deleted && message.content ? (
            <div className="break-words">
              <MarkdownView text={message.content} />
              {message.editedAt ? <span className="ml-1 text-[10px] text-(--d-muted)">{t('discordMessage.edited')}</span> : null}
            </div>
          ) : null}
          {(deleted ? [] : message.embeds).map((embed, i) => (
            <Embed
              // biome-ignore lint/suspicious/noArrayIndexKey: embeds have no id; their order is fixed
              key={i}
              embed={{
                ...(embed.title ? { title: embed.title } : {}),
                ...(embed.description ? { description: embed.description } : {}),
                // Links are checked by Embed (http and https only); the author's picture loads as the
                // page's policy allows, and not in the file (no picture from elsewhere there).
                ...(embed.url ? { url: embed.url } : {}),
                ...(embed.colour !== null ? { color: embed.colour } : {}),
                ...(embed.author
                  ? { author: { name: embed.author.name, ...(embed.author.url ? { url: embed.author.url } : {}), ...(!file && embed.author.iconUrl ? { icon_url: embed.author.iconUrl } : {}) } }
                  : {}),
                ...(embed.footer ? { footer: { text: embed.footer.text } } : {}),
                // Pictures load as the page's policy allows (Discord's CDN); the file shows none.
                ...(!file && embed.imageUrl && /^https?:\/\//i.test(embed.imageUrl) ? { image: { url: embed.imageUrl } } : {}),
                ...(!file && embed.thumbnailUrl && /^https?:\/\//i.test(embed.thumbnailUrl) ? { thumbnail: { url: embed.thumbnailUrl } } : {}),
                fields: embed.fields,
              }}
            />
          ))}
          {(deleted ? [] : message.attachments).map((attachment) =>
            isOwnFile(attachment.url) && attachment.contentType?.startsWith('image/') && (!file || file.images.has(attachment.url)) ? (
              <img key={attachment.id} src={file ? file.images.get(attachment.url) : buildUrl(attachment.url)} alt={attachment.filename} loading="lazy" className="mt-1 max-h-80 max-w-full rounded" />
            ) : (
              <a
                key={attachment.id}
                href={isOwnFile(attachment.url) ? ownUrl(attachment.url) : /^https?:\/\//.test(attachment.url) ? attachment.url : undefined}
                rel="noopener noreferrer nofollow"
                target="_blank"
                className="mt-1 flex max-w-sm items-center gap-2 rounded border border-(--d-embed-border) bg-(--d-embed) p-2 text-sm"
              >
                <Paperclip aria-hidden="true" className="size-4 shrink-0" />
                <span className="min-w-0 truncate text-(--d-link)">{attachment.filename}</span>
                <span className="text-xs text-(--d-muted)">{formatBytes(attachment.size)}</span>
              </a>
            ),
          )}
          {message.stickers.length ? <div className="mt-1 text-sm text-(--d-muted)">{message.stickers.map((s) => t('discordMessage.sticker', { name: s.name })).join(' · ')}</div> : null}
          {message.reactions.length ? (
            <ul className="mt-1 flex flex-wrap gap-1" aria-label={t('discordMessage.reactions')}>
              {message.reactions.map((reaction) => (
                <li key={'id' in reaction.emoji ? reaction.emoji.id : reaction.emoji.name} className="rounded-md border border-(--d-embed-border) bg-(--d-embed) px-1.5 text-xs">
                  {'id' in reaction.emoji ? `:${reaction.emoji.name}:` : reaction.emoji.name} {reaction.count}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        {file ? null : (
        <button
          type="button"
          title={t('discordMessage.copyLink')}
          aria-label={t('discordMessage.copyLink')}
          onClick={() => void navigator.clipboard?.writeText(`${location.origin}${location.pathname}#m-${message.id}`)}
          className="invisible self-start rounded p-1 text-(--d-muted) group-hover:visible focus-visible:visible"
        >
          <LinkIcon aria-hidden="true" className="size-4" />
        </button>
        )}
      </div>
    </article>
  );
}

