import { type EmbedConfig, embedPayload, MESSAGE_CONTENT_MAX, searchTags, type ServerConfig, type Tag, TAG_KEYWORDS_MAX, TAG_NAME_MAX } from '@tickety/api-contract';
import { formatNumber, useLocation, useRuntimeConfig } from '@tickety/shared';
import { Button, ConfirmDialog, cx, EmptyState, inputClasses } from '@tickety/ui';
import Copy from 'lucide-react/icons/copy';
import MessageSquareQuote from 'lucide-react/icons/message-square-quote';
import Pencil from 'lucide-react/icons/pencil';
import Plus from 'lucide-react/icons/plus';
import Trash from 'lucide-react/icons/trash-2';
import { type MouseEvent, useId, useMemo, useState } from 'react';
import { MessagePreview } from '../../../../components/discord/message-preview';
import { type MenuView } from '../../config-draft';
import { copyId, freeId } from '../../config-edit';
import { EditorFrame } from '../../editor-frame';
import { EmbedFields } from '../../embed-fields';
import { FieldErrors, TextArea, TextInput, Toggle, useFieldScope } from '../../fields';
import type { IssuePath } from '../../issues';
import { PreviewPane } from '../../preview-pane';
import { type EditorTarget, useConfigEditor } from '../../use-config-editor';
import type { SectionProps } from '../section-props';
import { useT } from './i18n';

/** The draft is the whole list of tags; an issue's own path is `list` (the limit) or `<index>.<field>`. */
const TARGET: EditorTarget<Tag[]> = {
  from: (config) => config.tags,
  apply: (config: ServerConfig, tags) => ({ ...config, tags }),
  own: (path: IssuePath) => (path[0] !== 'tags' ? null : path.length === 1 ? 'list' : path.slice(1).join('.')),
  savedView: (): MenuView => ({ kind: 'list' }),
};

const EMPTY_EMBED: EmbedConfig = { title: '', description: '', colour: null, imageUrl: null, thumbnailUrl: null, footer: '' };
/** The premium plan's tag limit (the plan catalogue's `limits.tags`), named when a free server reaches its own. */
const PREMIUM_TAG_LIMIT = 200;
const noStash = () => undefined;

/** A name of at most TAG_NAME_MAX characters not used by another tag: `base`, `base-2`, … */
function freeName(tags: readonly Tag[], base: string): string {
  const used = new Set(tags.map((tag) => tag.name));
  if (!used.has(base)) return base;
  return copyId(used, base.slice(0, TAG_NAME_MAX));
}

/**
 * The Automation page's Tags tab: the server's canned replies (`config.tags`), searchable, with their
 * count against the plan's limit; add, edit, copy and delete change the draft, saved together as a
 * new configuration version. The editor of one tag (`?tag=<id>`) shows the shared schema's problems
 * at its fields and the message as the bot posts it.
 */
export default function Section({ server, live, onSaved, onRefetch }: SectionProps) {
  const t = useT();
  const location = useLocation();
  const [editingId, setEditingId] = useState<string | null>(null);
  const editor = useConfigEditor<Tag[]>({ server, base: live, initial: live.config.tags, pristine: live.config.tags, target: TARGET, onSaved: (saved) => onSaved(saved), refetch: onRefetch });
  const { draft: tags, update } = editor;
  const index = editingId === null ? -1 : tags.findIndex((tag) => tag.id === editingId);
  const editing = index === -1 ? null : tags[index]!;
  // The frame's way back: from a tag to the list (this address: the leave guard lets it pass, and the
  // click is taken here), from the list to the server's dashboard (guarded while there are changes).
  const here = `${location.pathname}${location.search}`;
  const backHref = editing ? here : `/dashboard/${server}`;
  const open = (id: string | null) => setEditingId(id);
  const onBackClick = (event: MouseEvent<HTMLDivElement>) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!editing || link?.getAttribute('href') !== here) return;
    event.preventDefault();
    open(null);
  };

  const fieldNames: Record<string, string> = { name: t('tags.field.name'), content: t('tags.field.content'), keywords: t('tags.field.keywords'), embed: t('tags.field.embed') };
  const fieldLabel = (path: string): string | null => {
    if (path === 'list') return null;
    const [position, field] = path.split('.');
    const tag = tags[Number(position)];
    const name = field ? (fieldNames[field] ?? null) : null;
    return tag ? `/${tag.name}${name ? ` · ${name}` : ''}` : name;
  };

  const { productName } = useRuntimeConfig();
  const preview = editing ? (
    <PreviewPane
      note={t('tags.preview.note', { name: editing.name })}
      tabs={[
        {
          id: 'tag',
          label: t('tags.preview.tab'),
          render: () => <MessagePreview payload={{ ...(editing.content.trim() ? { content: editing.content } : {}), embeds: editing.embed ? [embedPayload(editing.embed)] : [] }} botName={productName} />,
        },
      ]}
    />
  ) : (
    <p className="rounded-xl border border-dashed border-surface-300 p-4 text-sm text-surface-600 dark:border-surface-700 dark:text-surface-400">{t('tags.preview.none')}</p>
  );

  const add = () => {
    const id = freeId(new Set(tags.map((tag) => tag.id)), 'tag');
    update((list) => [...list, { id, name: freeName(list, t('tags.newName')), content: '', embed: null, keywords: [] }]);
    open(id);
  };
  const copy = (tag: Tag) => {
    const id = copyId(new Set(tags.map((other) => other.id)), tag.id);
    update((list) => [...list, { ...tag, id, name: freeName(list, copyId(new Set(list.map((other) => other.name)), tag.name)) }]);
    open(id);
  };
  const change = (position: number, next: Partial<Tag>) => update((list) => list.map((tag, at) => (at === position ? { ...tag, ...next } : tag)));

  return (
    // Takes the click of the frame's own back link (a link: Enter on it clicks too).
    <div onClickCapture={onBackClick}>
    <EditorFrame
      editor={editor}
      title={editing ? t('tags.editing', { name: editing.name }) : t('tags.title')}
      label={t('tags.label')}
      backHref={backHref}
      backLabel={editing ? t('tags.back') : t('tags.backServer')}
      view={{ kind: 'list' }}
      stashKey={`tags:${server}`}
      flash={null}
      restored={false}
      onLeftDirty={noStash}
      fieldLabel={fieldLabel}
      preview={preview}
    >
      {editing ? (
        <>
          <TagFields key={editing.id} tag={editing} index={index} onChange={(next) => change(index, next)} />
          <Button variant="secondary" size="sm" onClick={() => open(null)}>
            {t('tags.done')}
          </Button>
        </>
      ) : (
        <TagList
          tags={tags}
          limit={live.tagLimit}
          premium={live.premium}
          onAdd={add}
          onEdit={(tag) => open(tag.id)}
          onCopy={copy}
          onDelete={(tag) => update((list) => list.filter((other) => other.id !== tag.id))}
        />
      )}
    </EditorFrame>
    </div>
  );
}

function TagList({
  tags,
  limit,
  premium,
  onAdd,
  onEdit,
  onCopy,
  onDelete,
}: {
  tags: Tag[];
  limit: number;
  premium: boolean;
  onAdd(): void;
  onEdit(tag: Tag): void;
  onCopy(tag: Tag): void;
  onDelete(tag: Tag): void;
}) {
  const t = useT();
  const searchId = useId();
  const { errors, under } = useFieldScope();
  const [query, setQuery] = useState('');
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const shown = useMemo(() => (query.trim() === '' ? tags : searchTags(tags, query)), [tags, query]);
  const full = tags.length >= limit;
  const listErrors = errors('list');
  return (
    <div className="space-y-4">
      <p className="text-sm text-surface-700 dark:text-surface-300">{t('tags.intro')}</p>
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-48 flex-1">
          <label htmlFor={searchId} className="mb-1 block text-sm font-medium text-surface-800 dark:text-surface-200">
            {t('tags.search')}
          </label>
          <input id={searchId} type="search" value={query} onChange={(event) => setQuery(event.target.value)} aria-describedby={`${searchId}-hint`} className={inputClasses} autoComplete="off" />
          <p id={`${searchId}-hint`} className="mt-1 text-xs text-surface-500 dark:text-surface-400">
            {t('tags.searchHint')}
          </p>
        </div>
        <p className={cx('text-sm tabular-nums', tags.length > limit ? 'font-semibold text-red-700 dark:text-red-400' : 'text-surface-600 dark:text-surface-400')}>
          {t('tags.count', { count: formatNumber(tags.length), limit: formatNumber(limit) })}
        </p>
        <Button onClick={onAdd} disabled={full} aria-describedby={full ? `${searchId}-full` : undefined}>
          <Plus aria-hidden="true" className="size-4" />
          {t('tags.add')}
        </Button>
      </div>
      {full ? (
        <p id={`${searchId}-full`} className="text-sm text-surface-700 dark:text-surface-300">
          {t('tags.limitReached', { limit: formatNumber(limit) })} {premium || limit >= PREMIUM_TAG_LIMIT ? null : t('tags.limitPremium', { limit: formatNumber(PREMIUM_TAG_LIMIT) })}
        </p>
      ) : null}
      <FieldErrors id={`${searchId}-errors`} errors={listErrors} />
      {tags.length === 0 ? (
        <EmptyState icon={<MessageSquareQuote aria-hidden="true" className="size-6" />} title={t('tags.empty.title')} description={t('tags.empty.body')} />
      ) : shown.length === 0 ? (
        <p role="status" className="text-sm text-surface-600 dark:text-surface-400">
          {t('tags.noMatch', { query: query.trim() })}
        </p>
      ) : (
        <ul aria-label={t('tags.list')} className="divide-y divide-surface-200 rounded-xl border border-surface-200 dark:divide-surface-800 dark:border-surface-800">
          {shown.map((tag) => {
            const position = tags.indexOf(tag);
            const problems = under(String(position)).length;
            return (
              <li key={tag.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <span className="font-mono font-semibold break-all text-surface-900 dark:text-surface-50">/{tag.name}</span>
                    {tag.embed ? <span className="rounded bg-surface-100 px-1.5 text-xs text-surface-700 dark:bg-surface-800 dark:text-surface-300">{t('tags.withEmbed')}</span> : null}
                    {problems > 0 ? <span className="text-xs font-semibold text-red-700 dark:text-red-400">{t('tags.problems', { count: problems })}</span> : null}
                  </p>
                  <p className="truncate text-sm text-surface-600 dark:text-surface-400">{tag.content.trim() || tag.embed?.title || tag.embed?.description || '—'}</p>
                  {tag.keywords.length > 0 ? <p className="truncate text-xs text-surface-500 dark:text-surface-400">{t('tags.keywordsShort', { keywords: tag.keywords.join(', ') })}</p> : null}
                </div>
                <div className="flex shrink-0 gap-1">
                  <Button size="sm" variant="secondary" onClick={() => onEdit(tag)} aria-label={t('tags.editName', { name: tag.name })}>
                    <Pencil aria-hidden="true" className="size-4" />
                    {t('tags.edit')}
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => onCopy(tag)} disabled={full} aria-label={t('tags.copyName', { name: tag.name })}>
                    <Copy aria-hidden="true" className="size-4" />
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => setDeleting(tag)} aria-label={t('tags.deleteName', { name: tag.name })}>
                    <Trash aria-hidden="true" className="size-4" />
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('tags.delete.title', { name: deleting?.name ?? '' })}
        confirmLabel={t('tags.delete')}
        cancelLabel={t('common.cancel')}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) onDelete(deleting);
          setDeleting(null);
        }}
      >
        <p>{t('tags.delete.body')}</p>
      </ConfirmDialog>
    </div>
  );
}

/** One tag's fields; the keywords are typed as a comma-separated line (kept as typed while editing). */
function TagFields({ tag, index, onChange }: { tag: Tag; index: number; onChange(next: Partial<Tag>): void }) {
  const t = useT();
  const [keywords, setKeywords] = useState(tag.keywords.join(', '));
  const { under } = useFieldScope();
  return (
    <div className="space-y-5">
      <TextInput path={`${index}.name`} label={t('tags.field.name')} value={tag.name} onChange={(name) => onChange({ name })} max={TAG_NAME_MAX} required hint={t('tags.field.nameHint')} spellCheck={false} />
      <TextInput
        path={`${index}.keywords`}
        label={t('tags.field.keywords')}
        value={keywords}
        onChange={(text) => {
          setKeywords(text);
          onChange({ keywords: text.split(',').map((word) => word.trim()).filter((word) => word !== '') });
        }}
        hint={t('tags.field.keywordsHint', { max: TAG_KEYWORDS_MAX })}
      />
      <FieldErrors id={`tag-${tag.id}-keywords`} errors={under(`${index}.keywords`)} />
      <TextArea path={`${index}.content`} label={t('tags.field.content')} value={tag.content} onChange={(content) => onChange({ content })} max={MESSAGE_CONTENT_MAX} markdown hint={t('tags.field.contentHint')} />
      <Toggle path={`${index}.embedOn`} label={t('tags.field.embed')} checked={tag.embed !== null} onChange={(on) => onChange({ embed: on ? { ...EMPTY_EMBED } : null })} hint={t('tags.field.embedHint')} />
      {tag.embed ? <EmbedFields path={`${index}.embed`} value={tag.embed} onChange={(embed) => onChange({ embed })} /> : null}
    </div>
  );
}
