import {
  ACCESS_AREAS,
  type AccessArea,
  type AccessLevel,
  type AccessRule,
  CHANNEL_NAME_MAX,
  type GeneralSettings,
  LOCALE_NAMES,
  LOCALES,
  type Locale,
  NAMING_SCHEME_VARIABLES,
  OPEN_TICKETS_PER_USER_MAX,
} from '@tickety/api-contract';
import { Button, cx, inputClasses } from '@tickety/ui';
import Trash2 from 'lucide-react/icons/trash-2';
import { useEffect, useId, useMemo, useState } from 'react';
import { href } from '../../lib/hrefs';
import { useT } from './i18n';
import { EditorFrame } from './editor-frame';
import type { EditorProps } from './editor-props';
import { FieldErrors, NumberInput, Section, SelectInput, TextInput, Toggle, useField } from './fields';
import { ChannelPicker, roleLabel, SingleRolePicker, useResources } from './pickers';
import { PreviewPane } from './preview-pane';
import { type EditorTarget, useConfigEditor } from './use-config-editor';

interface SettingsDraft {
  general: GeneralSettings;
  access: AccessRule[];
}

type SettingsProps = Omit<EditorProps, 'view'> & { view: { kind: 'settings' } };

const VARIABLES = NAMING_SCHEME_VARIABLES.map((v) => `{${v}}`);
type Level = AccessLevel | 'none';

function useSettingsFieldLabel() {
  const t = useT();
  return (path: string): string | null => {
    const fixed: Record<string, string> = {
      'general.defaultCategoryId': t('settings.category'),
      'general.transcriptChannelId': t('settings.transcripts'),
      'general.logChannelId': t('settings.logs'),
      'general.ticketNameScheme': t('settings.namingScheme'),
      'general.maxOpenTicketsPerUser': t('settings.perUser'),
      'general.language': t('settings.language'),
      access: t('settings.access.title'),
    };
    if (fixed[path]) return fixed[path]!;
    const rule = /^access\.(\d+)/.exec(path);
    if (rule) return t('settings.access.rule', { number: Number(rule[1]) + 1 });
    return null;
  };
}

/** One role's access: the role, and none / read / write for each area. */
function RuleRow({ rule, index, onChange, onRemove }: { rule: AccessRule; index: number; onChange(rule: AccessRule): void; onRemove(): void }) {
  const t = useT();
  const resources = useResources();
  const { id, errors } = useField(`access.${index}.areas`);
  const roleField = useField(`access.${index}.roleId`);
  const role = resources.data?.roles.find((r) => r.id === rule.roleId);
  const name = role ? roleLabel(role) : resources.data ? t('picker.roleGone', { id: rule.roleId }) : t('picker.roleId', { id: rule.roleId });
  return (
    <li className="rounded-lg border border-surface-200 p-3 dark:border-surface-700">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h4 id={roleField.id} tabIndex={-1} className="text-sm font-semibold break-words text-surface-900 outline-none dark:text-surface-50">
          {name}
        </h4>
        <Button size="sm" variant="ghost" className="text-red-700 dark:text-red-400" onClick={onRemove}>
          <Trash2 aria-hidden="true" className="size-4" />
          {t('settings.access.remove')}
          <span className="sr-only"> {name}</span>
        </Button>
      </div>
      <FieldErrors id={`${roleField.id}-error`} errors={roleField.errors} />
      <div id={id} tabIndex={-1} className="grid gap-3 outline-none sm:grid-cols-2 lg:grid-cols-3">
        {ACCESS_AREAS.map((area) => {
          const selectId = `${id}-${area}`;
          return (
            <div key={area}>
              <label htmlFor={selectId} className="mb-1 block text-xs font-medium text-surface-700 dark:text-surface-300">
                {t(`settings.area.${area}`)}
                <span className="sr-only"> ({name})</span>
              </label>
              <select
                id={selectId}
                className={cx(inputClasses, 'pr-8')}
                value={rule.areas[area] ?? 'none'}
                onChange={(event) => {
                  const level = event.target.value as Level;
                  const areas: Partial<Record<AccessArea, AccessLevel>> = { ...rule.areas };
                  if (level === 'none') delete areas[area];
                  else areas[area] = level;
                  onChange({ ...rule, areas });
                }}
              >
                <option value="none">{t('settings.level.none')}</option>
                <option value="read">{t('settings.level.read')}</option>
                <option value="write">{t('settings.level.write')}</option>
              </select>
            </div>
          );
        })}
      </div>
      <FieldErrors id={`${id}-error`} errors={errors} />
    </li>
  );
}

/** The server's general ticket settings and who else may use this dashboard. */
export function SettingsEditor({ server, live, restored, flash, onRestored, onLeftDirty, onSaved, onRefetch }: SettingsProps) {
  const t = useT();
  const fieldLabel = useSettingsFieldLabel();
  const addId = useId();
  const start = useState(() =>
    restored
      ? { base: restored.base, initial: restored.draft as SettingsDraft, pristine: { general: restored.base.config.general, access: restored.base.config.access }, restored: true }
      : { base: live, initial: { general: live.config.general, access: live.config.access }, pristine: { general: live.config.general, access: live.config.access }, restored: false },
  )[0];
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the editor opens
  useEffect(() => {
    if (start.restored) onRestored();
  }, []);
  const target = useMemo<EditorTarget<SettingsDraft>>(
    () => ({
      from: (config) => ({ general: config.general, access: config.access }),
      apply: (config, draft) => ({ ...config, general: draft.general, access: draft.access }),
      own: (path) => (path[0] === 'general' || path[0] === 'access' ? path.join('.') : null),
      savedView: () => ({ kind: 'settings' }),
    }),
    [],
  );
  const editor = useConfigEditor<SettingsDraft>({ server, base: start.base, initial: start.initial, pristine: start.pristine, target, onSaved, refetch: onRefetch });
  const { general, access } = editor.draft;
  const setGeneral = <K extends keyof GeneralSettings>(key: K, value: GeneralSettings[K]) => editor.update((d) => ({ ...d, general: { ...d.general, [key]: value } }));
  const setAccess = (next: AccessRule[]) => editor.update((d) => ({ ...d, access: next }));
  const accessErrors = useField('access');

  return (
    <EditorFrame
      editor={editor}
      title={t('settings.title')}
      label={t('settings.title')}
      backHref={href('/dashboard/:server/configs', { server })}
      backLabel={t('editor.back')}
      view={{ kind: 'settings' }}
      stashKey="settings"
      flash={flash}
      restored={start.restored}
      onLeftDirty={onLeftDirty}
      fieldLabel={fieldLabel}
      preview={
        <PreviewPane
          tabs={[
            {
              id: 'summary',
              label: t('settings.summary'),
              render: () => (
                <div className="space-y-1 p-4 text-sm">
                  <p className="font-semibold text-(--d-header)">{t('settings.summary.channel')}</p>
                  <p className="font-mono">{general.ticketNameScheme.replace('{count}', '0042').replace('{username}', 'ava').replace('{userid}', '1000000000000000001')}</p>
                </div>
              ),
            },
          ]}
          note={t('settings.summary.note')}
        />
      }
    >
      <Section title={t('settings.general.title')} description={t('settings.general.hint')}>
        <ChannelPicker path="general.defaultCategoryId" kind="category" label={t('settings.category')} value={general.defaultCategoryId} onChange={(v) => setGeneral('defaultCategoryId', v)} emptyText={t('settings.category.none')} />
        <ChannelPicker path="general.transcriptChannelId" kind="text" label={t('settings.transcripts')} value={general.transcriptChannelId} onChange={(v) => setGeneral('transcriptChannelId', v)} emptyText={t('settings.transcripts.none')} />
        <ChannelPicker path="general.logChannelId" kind="text" label={t('settings.logs')} value={general.logChannelId} onChange={(v) => setGeneral('logChannelId', v)} emptyText={t('settings.logs.none')} />
        <TextInput
          path="general.ticketNameScheme"
          label={t('settings.namingScheme')}
          value={general.ticketNameScheme}
          onChange={(v) => setGeneral('ticketNameScheme', v)}
          max={CHANNEL_NAME_MAX}
          required
          inserts={VARIABLES}
          spellCheck={false}
          hint={t('settings.namingSchemeHint')}
        />
        <NumberInput
          path="general.maxOpenTicketsPerUser"
          label={t('settings.perUser')}
          value={general.maxOpenTicketsPerUser}
          onChange={(v) => setGeneral('maxOpenTicketsPerUser', v ?? 1)}
          min={1}
          max={OPEN_TICKETS_PER_USER_MAX}
          hint={t('settings.perUserHint', { max: OPEN_TICKETS_PER_USER_MAX })}
        />
        <Toggle path="general.claiming" label={t('settings.claiming')} checked={general.claiming} onChange={(v) => setGeneral('claiming', v)} hint={t('panel.claimingHint')} />
        <Toggle path="general.twoStepClose" label={t('settings.twoStepClose')} checked={general.twoStepClose} onChange={(v) => setGeneral('twoStepClose', v)} hint={t('panel.twoStepCloseHint')} />
        <SelectInput<Locale>
          path="general.language"
          label={t('settings.language')}
          value={general.language}
          onChange={(v) => setGeneral('language', v)}
          hint={t('settings.languageHint')}
          options={LOCALES.map((locale) => ({ value: locale, label: LOCALE_NAMES[locale] }))}
        />
      </Section>

      <Section title={t('settings.access.title')} description={t('settings.access.hint')}>
        <div id={accessErrors.id} tabIndex={-1} className="outline-none">
          <FieldErrors id={`${accessErrors.id}-error`} errors={accessErrors.errors} />
        </div>
        {access.length === 0 ? <p className="text-sm text-surface-600 dark:text-surface-400">{t('settings.access.none')}</p> : null}
        <ul className="space-y-3">
          {access.map((rule, index) => (
            <RuleRow
              key={rule.roleId}
              rule={rule}
              index={index}
              onChange={(next) => setAccess(access.map((r, i) => (i === index ? next : r)))}
              onRemove={() => setAccess(access.filter((_, i) => i !== index))}
            />
          ))}
        </ul>
        <div>
          <label htmlFor={addId} className="mb-1 block text-sm font-medium text-surface-800 dark:text-surface-200">
            {t('settings.access.add')}
          </label>
          <SingleRolePicker id={addId} exclude={access.map((r) => r.roleId)} placeholder={t('picker.searchRoles')} onPick={(roleId) => setAccess([...access, { roleId, areas: { panels: 'read' } }])} />
        </div>
      </Section>
    </EditorFrame>
  );
}
