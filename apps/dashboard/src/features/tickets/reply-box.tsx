import { discordLength, embedPayload, MESSAGE_CONTENT_MAX, REPLY_ATTACHMENTS_MAX, REPLY_ATTACHMENTS_MAX_BYTES, type ReplyAttachment, type Tag } from '@tickety/api-contract';
import { errorText } from '@tickety/shared';
import { Button, cx, inputClasses } from '@tickety/ui';
import Paperclip from 'lucide-react/icons/paperclip';
import Send from 'lucide-react/icons/send';
import CloseIcon from 'lucide-react/icons/x';
import { type DragEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { MarkdownView } from '../../components/discord/markdown-view';
import { DiscordSurface, Embed } from '../../components/discord/message-preview';
import { formatBytes } from '../../components/discord/message-model';
import { uploadAttachment } from './api';
import { useT } from './i18n';
import { attachmentsProblem } from './model';
import { optionId, TagList, tagQuery, useTagMatches } from './tag-list';

/** A file of the reply being written: uploading (bytes sent so far), uploaded, or failed. */
interface Upload {
  key: number;
  file: File;
  sent: number;
  attachment: ReplyAttachment | null;
  error: string | null;
  controller: AbortController;
}

export interface ReplyDraft {
  content: string;
  attachmentIds: string[];
  /** The tag chosen from the `/` list: its embed is posted with the text, and Statistics counts the use. */
  tagId?: string;
}

/** The text to put back into the box (a failed reply's "Edit the text"), with a change of `key` each time. */
export interface Restore {
  key: number;
  content: string;
}

let uploadKey = 0;

/**
 * The reply box: the text with Discord's markdown preview and the character count as Discord counts
 * it, Ctrl/⌘+Enter to send, and files (picker or drop) uploaded at once with their progress, within
 * Discord's limits of files and bytes per message.
 */
export function ReplyBox({ server, ticket, dark, restore, onSend }: { server: string; ticket: string; dark: boolean; restore: Restore | null; onSend: (draft: ReplyDraft) => void }) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState('');
  const [preview, setPreview] = useState(false);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [tag, setTag] = useState<Tag | null>(null);
  const [active, setActive] = useState<string | null>(null);
  /** Escape closed the `/` list: it stays closed until the text no longer starts with `/`. */
  const [dismissed, setDismissed] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const uploadsRef = useRef(uploads);
  uploadsRef.current = uploads;

  useEffect(() => () => {
    for (const upload of uploadsRef.current) upload.controller.abort();
  }, []);
  useEffect(() => {
    if (!restore) return;
    setText(restore.content);
    setPreview(false);
    textarea.current?.focus();
  }, [restore]);

  const length = discordLength(text);
  const over = length - MESSAGE_CONTENT_MAX;
  const busy = uploads.some((upload) => !upload.attachment);
  const query = dismissed ? null : tagQuery(text);
  const { read: tagsRead, matches } = useTagMatches(server, query);
  const listOpen = query !== null && !preview;
  const activeTag = listOpen ? (matches.find((match) => match.id === active) ?? matches[0] ?? null) : null;
  // A tag with an embed may be sent without text (the embed is then the message).
  const canSend = (text.trim() !== '' || (tag?.embed != null && text === '')) && over <= 0 && !busy && !listOpen;

  const choose = (chosen: Tag) => {
    setTag(chosen);
    setText(chosen.content);
    setActive(null);
    textarea.current?.focus();
  };

  const update = (key: number, change: Partial<Upload>) => setUploads((list) => list.map((upload) => (upload.key === key ? { ...upload, ...change } : upload)));

  const addFiles = (files: readonly File[]) => {
    if (files.length === 0) return;
    const kept = uploadsRef.current.filter((upload) => upload.error === null);
    const problem = attachmentsProblem([...kept, ...files.map((file) => ({ file }))].map((item) => item.file.size), REPLY_ATTACHMENTS_MAX, REPLY_ATTACHMENTS_MAX_BYTES);
    if (problem) {
      const total = [...kept.map((upload) => upload.file), ...files].reduce((sum, file) => sum + file.size, 0);
      setRefusal(problem === 'tooMany' ? t('tickets.reply.tooMany', { max: REPLY_ATTACHMENTS_MAX }) : t('tickets.reply.tooLarge', { size: formatBytes(total), max: formatBytes(REPLY_ATTACHMENTS_MAX_BYTES) }));
      return;
    }
    setRefusal(null);
    const added = files.map((file) => ({ key: ++uploadKey, file, sent: 0, attachment: null, error: null, controller: new AbortController() }));
    setUploads([...kept, ...added]);
    for (const upload of added) {
      uploadAttachment({ server, ticket, file: upload.file, signal: upload.controller.signal, onProgress: (sent) => update(upload.key, { sent }) })
        .then((attachment) => update(upload.key, { attachment, sent: upload.file.size }))
        .catch((error: unknown) => {
          if (!upload.controller.signal.aborted) update(upload.key, { error: errorText(error) });
        });
    }
  };

  const remove = (key: number) => {
    uploadsRef.current.find((upload) => upload.key === key)?.controller.abort();
    setUploads((list) => list.filter((upload) => upload.key !== key));
    setRefusal(null);
  };

  const send = () => {
    if (!canSend) return;
    onSend({ content: text, attachmentIds: uploads.map((upload) => upload.attachment!.id), ...(tag ? { tagId: tag.id } : {}) });
    setText('');
    setTag(null);
    setUploads([]);
    setRefusal(null);
    setPreview(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (listOpen && (event.key === 'ArrowDown' || event.key === 'ArrowUp') && matches.length > 0) {
      event.preventDefault();
      const index = activeTag ? matches.indexOf(activeTag) : -1;
      const next = event.key === 'ArrowDown' ? (index + 1) % matches.length : (index - 1 + matches.length) % matches.length;
      setActive(matches[next]!.id);
      return;
    }
    if (listOpen && event.key === 'Enter' && !event.shiftKey && activeTag) {
      event.preventDefault();
      choose(activeTag);
      return;
    }
    if (listOpen && event.key === 'Escape') {
      event.preventDefault();
      setDismissed(true);
      return;
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      send();
    }
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    addFiles([...event.dataTransfer.files]);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target for files; "Attach files" is the way without a mouse
    <div
      onDragOver={(event) => {
        if (![...event.dataTransfer.types].includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className={cx('rounded-xl border bg-white p-3 dark:bg-surface-900', dragging ? 'border-primary-500 ring-2 ring-primary-500' : 'border-surface-200 dark:border-surface-800')}
    >
      <div className="mb-2 flex items-center justify-between gap-2">
        <label htmlFor={`${id}-text`} className="text-sm font-medium text-surface-800 dark:text-surface-200">
          {t('tickets.reply')}
        </label>
        <div className="flex gap-1">
          {([false, true] as const).map((mode) => (
            <button
              key={String(mode)}
              type="button"
              aria-pressed={preview === mode}
              onClick={() => setPreview(mode)}
              className={cx('rounded px-2 py-0.5 text-xs font-medium', preview === mode ? 'bg-surface-200 text-surface-900 dark:bg-surface-700 dark:text-surface-50' : 'text-surface-600 hover:bg-surface-100 dark:text-surface-300 dark:hover:bg-surface-800')}
            >
              {t(mode ? 'tickets.reply.preview' : 'tickets.reply.write')}
            </button>
          ))}
        </div>
      </div>
      <div className="relative">
        {listOpen ? <TagList id={`${id}-tags`} read={tagsRead} matches={matches} active={activeTag?.id ?? null} onChoose={choose} onHover={setActive} /> : null}
        {/* A text box that is the combobox of the tag list while `/` has it open (ARIA 1.2 combobox). */}
        {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: aria-expanded and aria-controls are set only while the role is combobox */}
        <textarea
          ref={textarea}
          id={`${id}-text`}
          rows={4}
          hidden={preview}
          value={text}
          placeholder={t('tickets.reply.placeholder')}
          role={listOpen ? 'combobox' : undefined}
          aria-autocomplete={listOpen ? 'list' : undefined}
          aria-expanded={listOpen ? true : undefined}
          aria-controls={listOpen ? `${id}-tags` : undefined}
          aria-activedescendant={activeTag ? optionId(`${id}-tags`, activeTag.id) : undefined}
          aria-describedby={`${id}-count ${id}-hint`}
          aria-invalid={over > 0 || undefined}
          onChange={(event) => {
            setText(event.target.value);
            if (!event.target.value.startsWith('/')) setDismissed(false);
          }}
          onKeyDown={onKeyDown}
          className={cx(inputClasses, 'min-h-24 resize-y')}
        />
      </div>
      {tag ? (
        <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
          <span className="rounded-full bg-primary-50 px-2 py-0.5 font-medium text-primary-800 dark:bg-primary-950 dark:text-primary-200">{t('tickets.tags.chosen', { name: tag.name })}</span>
          {tag.embed ? <span className="text-xs text-surface-600 dark:text-surface-400">{t('tickets.tags.embedSent')}</span> : null}
          <button type="button" onClick={() => setTag(null)} className="text-xs font-medium text-primary-700 underline dark:text-primary-300">
            {t('tickets.tags.unlink')}
          </button>
        </div>
      ) : null}
      {preview ? (
        <DiscordSurface theme={dark ? 'dark' : 'light'} className="min-h-24 p-3">
          {text.trim() ? <MarkdownView text={text} /> : tag?.embed ? null : <p className="text-sm opacity-70">{t('tickets.reply.previewEmpty')}</p>}
          {tag?.embed ? <Embed embed={embedPayload(tag.embed)} /> : null}
        </DiscordSurface>
      ) : null}
      {dragging ? <p className="mt-1 text-sm text-primary-700 dark:text-primary-300">{t('tickets.reply.drop')}</p> : null}
      {uploads.length > 0 ? (
        <ul aria-label={t('tickets.reply.files')} className="mt-2 space-y-1">
          {uploads.map((upload) => (
            <li key={upload.key} className="flex items-center gap-2 rounded-md border border-surface-200 px-2 py-1 text-sm dark:border-surface-700">
              <Paperclip aria-hidden="true" className="size-4 shrink-0" />
              <span className="min-w-0 flex-1 truncate">{upload.file.name}</span>
              <span className="text-xs text-surface-500 dark:text-surface-400">{formatBytes(upload.file.size)}</span>
              <span className={cx('text-xs', upload.error ? 'text-red-700 dark:text-red-300' : 'text-surface-600 dark:text-surface-300')}>
                {upload.error
                  ? t('tickets.reply.uploadFailed', { reason: upload.error })
                  : upload.attachment
                    ? t('tickets.reply.uploaded')
                    : t('tickets.reply.uploading', { percent: Math.floor((100 * upload.sent) / Math.max(1, upload.file.size)) })}
              </span>
              {upload.attachment || upload.error ? null : <progress className="h-1.5 w-16" max={upload.file.size || 1} value={upload.sent} aria-label={upload.file.name} />}
              <button type="button" onClick={() => remove(upload.key)} aria-label={t('tickets.reply.remove', { name: upload.file.name })} className="rounded p-0.5 hover:bg-surface-100 dark:hover:bg-surface-800">
                <CloseIcon aria-hidden="true" className="size-4" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div role="alert" className="empty:hidden">
        {refusal ? <p className="mt-2 text-sm text-red-700 dark:text-red-300">{refusal}</p> : null}
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <input ref={fileInput} type="file" multiple hidden onChange={(event) => {
          addFiles([...(event.target.files ?? [])]);
          event.target.value = '';
        }} data-testid="reply-files" />
        <Button variant="secondary" size="sm" onClick={() => fileInput.current?.click()}>
          <Paperclip aria-hidden="true" className="size-4" />
          {t('tickets.reply.attach')}
        </Button>
        <span id={`${id}-hint`} className="hidden text-xs text-surface-500 sm:inline dark:text-surface-400">
          {t('tickets.reply.hint')} {t('tickets.tags.hint')}
        </span>
        <span id={`${id}-count`} className={cx('ml-auto text-xs tabular-nums', over > 0 ? 'font-semibold text-red-700 dark:text-red-300' : 'text-surface-500 dark:text-surface-400')}>
          <span aria-hidden="true">{t('tickets.reply.count', { count: length, max: MESSAGE_CONTENT_MAX })}</span>
          <span className="sr-only">{t('tickets.reply.countLabel', { count: length, max: MESSAGE_CONTENT_MAX })}</span>
        </span>
        <Button size="sm" onClick={send} disabled={!canSend}>
          <Send aria-hidden="true" className="size-4" />
          {t('tickets.reply.send')}
        </Button>
      </div>
      {over > 0 ? <p className="mt-1 text-sm text-red-700 dark:text-red-300">{t('tickets.reply.tooLong', { max: MESSAGE_CONTENT_MAX, over })}</p> : null}
      {busy && text.trim() ? <p className="mt-1 text-xs text-surface-600 dark:text-surface-400">{t('tickets.reply.waitUploads')}</p> : null}
    </div>
  );
}
