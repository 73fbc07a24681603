import {
  buildMultiPanelMessage,
  CHANNEL_NAME_MAX,
  MULTI_PANEL_BUTTONS_MAX,
  MULTI_PANEL_SELECT_MAX,
  MULTI_PANEL_SELECT_MIN,
  type MultiPanel,
  type MultiPanelMode,
  SELECT_PLACEHOLDER_MAX,
  type ServerConfig,
} from '@tickety/api-contract';
import { useRuntimeConfig } from '@tickety/shared';
import { Button, cx, inputClasses } from '@tickety/ui';
import ArrowDown from 'lucide-react/icons/arrow-down';
import ArrowUp from 'lucide-react/icons/arrow-up';
import Plus from 'lucide-react/icons/plus';
import Trash2 from 'lucide-react/icons/trash-2';
import { useEffect, useId, useMemo, useState } from 'react';
import { MessagePreview } from '../../components/discord/message-preview';
import { href } from '../../lib/hrefs';
import { useT } from './i18n';
import { copyId, copyOf, freeId, newMultiPanel, usedIds, withMultiPanel } from './config-edit';
import { EditorFrame } from './editor-frame';
import type { EditorProps } from './editor-props';
import { EmbedFields } from './embed-fields';
import { ChoiceGroup, FieldErrors, Section, TextInput, useField } from './fields';
import { NotFound } from './not-found';
import { PreviewPane } from './preview-pane';
import { type EditorTarget, useConfigEditor } from './use-config-editor';

function startingMulti(view: EditorProps['view'], config: ServerConfig, t: ReturnType<typeof useT>): MultiPanel | undefined {
  if (view.id) return config.multiPanels.find((m) => m.id === view.id);
  const used = usedIds(config);
  const source = view.copy ? config.multiPanels.find((m) => m.id === view.copy) : undefined;
  if (source) return copyOf(source, copyId(used, source.id), t('editor.copyName', { name: source.name }));
  return newMultiPanel(
    freeId(used, 'multi'),
    config.panels.slice(0, MULTI_PANEL_SELECT_MIN).map((p) => p.id),
    { name: t('multi.new.name'), title: t('multi.new.title'), description: t('multi.new.description') },
  );
}

/** The panels a multi-panel offers, in order: move, remove, add one of the others. */
function OfferedPanels({ value, onChange, panels, mode }: { value: string[]; onChange(value: string[]): void; panels: ServerConfig['panels']; mode: MultiPanelMode }) {
  const t = useT();
  const { id, errors } = useField('panelIds');
  const addId = useId();
  const remaining = panels.filter((p) => !value.includes(p.id));
  const [adding, setAdding] = useState('');
  const chosen = remaining.some((p) => p.id === adding) ? adding : (remaining[0]?.id ?? '');
  const max = mode === 'select' ? MULTI_PANEL_SELECT_MAX : MULTI_PANEL_BUTTONS_MAX;
  const nameOf = (panelId: string) => panels.find((p) => p.id === panelId)?.name ?? t('multi.missingPanel', { id: panelId });
  const move = (index: number, by: -1 | 1) => {
    const next = [...value];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    onChange(next);
  };
  return (
    <div id={id} tabIndex={-1} className="space-y-3 outline-none">
      <p className="text-sm font-medium text-surface-800 dark:text-surface-200">{t('multi.panels')}</p>
      <p className="text-xs text-surface-600 dark:text-surface-400">{t(mode === 'select' ? 'multi.panelsHint.select' : 'multi.panelsHint.buttons', { min: MULTI_PANEL_SELECT_MIN, max })}</p>
      {value.length === 0 ? <p className="text-sm text-surface-600 dark:text-surface-400">{t('multi.noPanels')}</p> : null}
      <ol className="space-y-1.5">
        {value.map((panelId, index) => (
          <li key={panelId} className="flex items-center gap-2 rounded-lg border border-surface-200 px-3 py-1.5 dark:border-surface-700">
            <span className="w-6 shrink-0 text-sm text-surface-500 tabular-nums">{index + 1}.</span>
            <span className="min-w-0 flex-1 text-sm break-words text-surface-900 dark:text-surface-50">{nameOf(panelId)}</span>
            <Button size="sm" variant="ghost" aria-label={t('multi.moveUp', { name: nameOf(panelId) })} disabled={index === 0} onClick={() => move(index, -1)}>
              <ArrowUp aria-hidden="true" className="size-4" />
            </Button>
            <Button size="sm" variant="ghost" aria-label={t('multi.moveDown', { name: nameOf(panelId) })} disabled={index === value.length - 1} onClick={() => move(index, 1)}>
              <ArrowDown aria-hidden="true" className="size-4" />
            </Button>
            <Button size="sm" variant="ghost" className="text-red-700 dark:text-red-400" aria-label={t('multi.remove', { name: nameOf(panelId) })} onClick={() => onChange(value.filter((_, i) => i !== index))}>
              <Trash2 aria-hidden="true" className="size-4" />
            </Button>
          </li>
        ))}
      </ol>
      <FieldErrors id={`${id}-error`} errors={errors} />
      {remaining.length > 0 ? (
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 flex-1">
            <label htmlFor={addId} className="mb-1 block text-sm font-medium text-surface-800 dark:text-surface-200">
              {t('multi.addLabel')}
            </label>
            <select id={addId} className={cx(inputClasses, 'pr-8')} value={chosen} onChange={(e) => setAdding(e.target.value)}>
              {remaining.map((panel) => (
                <option key={panel.id} value={panel.id}>
                  {panel.name}
                </option>
              ))}
            </select>
          </div>
          <Button variant="secondary" onClick={() => chosen && onChange([...value, chosen])}>
            <Plus aria-hidden="true" className="size-4" />
            {t('multi.add')}
          </Button>
        </div>
      ) : (
        <p className="text-xs text-surface-600 dark:text-surface-400">{t('multi.allOffered')}</p>
      )}
    </div>
  );
}

function useMultiFieldLabel() {
  const t = useT();
  return (path: string): string | null => {
    const fixed: Record<string, string> = {
      name: t('multi.name'),
      id: t('multi.name'),
      'embed.title': t('field.title'),
      'embed.description': t('field.description'),
      'embed.colour': t('field.colour'),
      'embed.imageUrl': t('field.imageUrl'),
      'embed.thumbnailUrl': t('field.thumbnailUrl'),
      'embed.footer': t('field.footer'),
      embed: t('panel.section.message'),
      mode: t('multi.mode'),
      panelIds: t('multi.panels'),
      selectPlaceholder: t('multi.placeholder'),
    };
    if (fixed[path]) return fixed[path]!;
    if (path.startsWith('panelIds.')) return t('multi.panels');
    return null;
  };
}

/** The editor of a multi-panel: its name, message, buttons or select menu, and the panels it offers. */
export function MultiPanelEditor({ server, view, live, restored, flash, onRestored, onLeftDirty, onSaved, onRefetch }: EditorProps) {
  const t = useT();
  const runtime = useRuntimeConfig();
  const fieldLabel = useMultiFieldLabel();
  const start = useState(() => {
    if (restored) return { base: restored.base, initial: restored.draft as MultiPanel, pristine: startingMulti(view, restored.base.config, t) ?? (restored.draft as MultiPanel), restored: true };
    const multi = startingMulti(view, live.config, t);
    return multi ? { base: live, initial: multi, pristine: multi, restored: false } : null;
  })[0];
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the editor opens
  useEffect(() => {
    if (start?.restored) onRestored();
  }, []);
  const originalId = view.id;
  const target = useMemo<EditorTarget<MultiPanel>>(
    () => ({
      from: (config) => (originalId ? config.multiPanels.find((m) => m.id === originalId) : undefined),
      apply: (config, draft) => withMultiPanel(config, draft, originalId),
      own: (path, applied, draft) => {
        const index = applied.multiPanels.indexOf(draft);
        return path[0] === 'multiPanels' && path[1] === index ? path.slice(2).join('.') : null;
      },
      rebase: (draft, config) => (originalId === null && usedIds(config).has(draft.id) ? { ...draft, id: freeId(usedIds(config), 'multi') } : draft),
      savedView: (draft) => ({ kind: 'multi', id: draft.id, copy: null }),
    }),
    [originalId],
  );
  const fallback = newMultiPanel('missing', [], { name: '', title: '', description: '' });
  const editor = useConfigEditor<MultiPanel>({ server, base: start?.base ?? live, initial: start?.initial ?? fallback, pristine: start?.pristine ?? fallback, target, onSaved, refetch: onRefetch });

  if (!start) return <NotFound server={server} kind="multi" id={view.id ?? ''} />;

  const multi = editor.draft;
  const panels = editor.base.config.panels;
  const set = <K extends keyof MultiPanel>(key: K, value: MultiPanel[K]) => editor.update((d) => ({ ...d, [key]: value }));
  // The preview shows the panels that exist (a missing one is the schema's to report).
  const payload = buildMultiPanelMessage({ ...multi, panelIds: multi.panelIds.filter((id) => panels.some((p) => p.id === id)) }, panels);

  return (
    <EditorFrame
      editor={editor}
      title={view.id ? t('multi.editTitle', { name: multi.name }) : t('multi.newTitle')}
      label={multi.name}
      backHref={href('/dashboard/:server/configs', { server })}
      backLabel={t('editor.back')}
      view={view}
      stashKey={view.id ? `multi:${view.id}` : `multi:new${view.copy ? `:${view.copy}` : ''}`}
      flash={flash}
      restored={start.restored}
      onLeftDirty={onLeftDirty}
      fieldLabel={fieldLabel}
      preview={<PreviewPane note={t('preview.note')} tabs={[{ id: 'message', label: t('preview.tab.panel'), render: () => <MessagePreview payload={payload} botName={runtime.productName} /> }]} />}
    >
      <Section title={t('panel.section.basics')}>
        <TextInput path="name" label={t('multi.name')} value={multi.name} onChange={(v) => set('name', v)} max={CHANNEL_NAME_MAX} required hint={t('multi.nameHint')} />
      </Section>
      <Section title={t('panel.section.message')} description={t('multi.messageHint')}>
        <EmbedFields path="embed" value={multi.embed} onChange={(v) => set('embed', v)} />
      </Section>
      <Section title={t('multi.section.panels')}>
        <ChoiceGroup<MultiPanelMode>
          path="mode"
          legend={t('multi.mode')}
          value={multi.mode}
          onChange={(mode) => set('mode', mode)}
          options={[
            { value: 'buttons', label: t('multi.mode.buttons') },
            { value: 'select', label: t('multi.mode.select') },
          ]}
        />
        <OfferedPanels value={multi.panelIds} onChange={(v) => set('panelIds', v)} panels={panels} mode={multi.mode} />
        {multi.mode === 'select' ? (
          <TextInput
            path="selectPlaceholder"
            label={t('multi.placeholder')}
            value={multi.selectPlaceholder ?? ''}
            onChange={(v) => set('selectPlaceholder', v === '' ? null : v)}
            max={SELECT_PLACEHOLDER_MAX}
            placeholder={t('preview.selectDefault')}
            hint={t('multi.placeholderHint')}
          />
        ) : null}
      </Section>
    </EditorFrame>
  );
}
