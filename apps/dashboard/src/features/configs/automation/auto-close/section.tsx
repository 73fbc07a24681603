/**
 * The Automation page's Auto-close tab: the server's rules, each panel's choice (the server's rules or
 * its own), the warning's text with a live Discord preview, checked by the shared schema and saved
 * with the whole configuration (docs/api.md, "Auto-close").
 */
import {
  AUTO_CLOSE_HOURS_MAX,
  AUTO_CLOSE_KEEP_OPEN_ID,
  AUTO_CLOSE_KEEP_OPEN_LABEL,
  AUTO_CLOSE_WARNING_HOURS_MAX,
  type AutoCloseRules,
  autoCloseWarning,
  DISCORD_BUTTON_STYLE,
  MESSAGE_CONTENT_MAX,
  type ServerConfig,
} from '@tickety/api-contract';
import { cx, inputClasses } from '@tickety/ui';
import { useId, useMemo, useState } from 'react';
import { MessagePreview } from '../../../../components/discord/message-preview';
import { href } from '../../../../lib/hrefs';
import { EditorFrame } from '../../editor-frame';
import { ChoiceGroup, Section as FieldSection, NumberInput, TextArea, Toggle } from '../../fields';
import { PreviewPane } from '../../preview-pane';
import { type EditorTarget, useConfigEditor } from '../../use-config-editor';
import type { SectionProps } from '../section-props';
import { useT } from './i18n';

/** The server's rules, and each panel's own (null: the server's), by panel id. */
interface AutoCloseDraft {
  server: AutoCloseRules;
  panels: Record<string, AutoCloseRules | null>;
}

/** Hours a rule starts with when it is switched on. */
const START_HOURS = { memberSilentHours: 24, staffSilentHours: 72 } as const;
/** The preview's example member. */
const EXAMPLE_MEMBER = '1000000000000000002';

/** The draft's own path of an issue in the applied configuration: `autoClose.x` or `panels.<id>.autoClose.x`. */
function ownPath(path: ReadonlyArray<string | number>, applied: ServerConfig): string | null {
  if (path[0] === 'autoClose') return path.join('.');
  if (path[0] === 'panels' && typeof path[1] === 'number' && path[2] === 'autoClose') {
    const id = applied.panels[path[1]]?.id;
    return id === undefined ? null : ['panels', id, ...path.slice(2)].join('.');
  }
  return null;
}

const TARGET: EditorTarget<AutoCloseDraft> = {
  from: (config) => ({ server: config.autoClose, panels: Object.fromEntries(config.panels.map((panel) => [panel.id, panel.autoClose])) }),
  apply: (config, draft) => ({
    ...config,
    autoClose: draft.server,
    panels: config.panels.map((panel) => (panel.id in draft.panels ? { ...panel, autoClose: draft.panels[panel.id] ?? null } : panel)),
  }),
  own: (path, applied) => ownPath(path, applied),
  rebase: (draft, config) => ({ ...draft, panels: Object.fromEntries(config.panels.map((panel) => [panel.id, panel.id in draft.panels ? (draft.panels[panel.id] ?? null) : panel.autoClose])) }),
  savedView: () => ({ kind: 'settings' }),
};

/** One set of rules: the two waits, the opener leaving, the warning's hours and text. */
function RulesFields({ prefix, rules, onChange }: { prefix: string; rules: AutoCloseRules; onChange(rules: AutoCloseRules): void }) {
  const t = useT();
  const set = <K extends keyof AutoCloseRules>(key: K, value: AutoCloseRules[K]) => onChange({ ...rules, [key]: value });
  const hoursHint = t('autoClose.hoursHint', { max: AUTO_CLOSE_HOURS_MAX });
  return (
    <div className="space-y-4">
      {(['memberSilentHours', 'staffSilentHours'] as const).map((key) => {
        const name = key === 'memberSilentHours' ? 'memberSilent' : 'staffSilent';
        const on = rules[key] !== null;
        return (
          <div key={key} className="space-y-2">
            <Toggle path={`${prefix}.${key}.on`} label={t(`autoClose.${name}`)} hint={t(`autoClose.${name}.hint`)} checked={on} onChange={(checked) => set(key, checked ? START_HOURS[key] : null)} />
            {on ? <NumberInput path={`${prefix}.${key}`} label={t(`autoClose.${key}`)} value={rules[key]} onChange={(value) => set(key, value ?? 1)} min={1} max={AUTO_CLOSE_HOURS_MAX} hint={hoursHint} className="pl-7" /> : null}
          </div>
        );
      })}
      <Toggle path={`${prefix}.onOpenerLeave`} label={t('autoClose.onOpenerLeave')} checked={rules.onOpenerLeave} onChange={(checked) => set('onOpenerLeave', checked)} />
      <NumberInput
        path={`${prefix}.warningHours`}
        label={t('autoClose.warningHours')}
        value={rules.warningHours}
        onChange={(value) => set('warningHours', value ?? 0)}
        min={0}
        max={AUTO_CLOSE_WARNING_HOURS_MAX}
        hint={t('autoClose.warningHours.hint')}
      />
      {rules.warningHours > 0 ? (
        <TextArea
          path={`${prefix}.warningMessage`}
          label={t('autoClose.warningMessage')}
          value={rules.warningMessage}
          onChange={(value) => set('warningMessage', value)}
          max={MESSAGE_CONTENT_MAX}
          rows={3}
          markdown
          hint={t('autoClose.warningMessage.hint', { userVar: '{user}', timeVar: '{time}' })}
        />
      ) : null}
    </div>
  );
}

/** What the rules do, in one or two lines (a panel following the server's rules shows them). */
function RulesSummary({ rules }: { rules: AutoCloseRules }) {
  const t = useT();
  const lines = [
    rules.memberSilentHours !== null ? t('autoClose.summary.member', { hours: rules.memberSilentHours }) : null,
    rules.staffSilentHours !== null ? t('autoClose.summary.staff', { hours: rules.staffSilentHours }) : null,
    rules.onOpenerLeave ? t('autoClose.summary.leave') : null,
  ].filter((line): line is string => line !== null);
  if (lines.length === 0) return <p className="text-sm text-surface-600 dark:text-surface-400">{t('autoClose.summary.off')}</p>;
  const warns = rules.warningHours > 0 && (rules.memberSilentHours !== null || rules.staffSilentHours !== null);
  return <p className="text-sm text-surface-600 dark:text-surface-400">{[...lines, warns ? t('autoClose.summary.warning', { hours: rules.warningHours }) : null].filter(Boolean).join(' ')}</p>;
}

/** The warning as Discord shows it, for the server's rules or a panel's own. */
function WarningPreview({ draft, config, now }: { draft: AutoCloseDraft; config: ServerConfig; now: number }) {
  const t = useT();
  const id = useId();
  const own = config.panels.filter((panel) => draft.panels[panel.id]);
  const [which, setWhich] = useState('');
  const rules = (which !== '' ? draft.panels[which] : null) ?? draft.server;
  const language = config.general.language === 'de' ? 'de' : 'en';
  const warns = rules.warningHours > 0 && (rules.memberSilentHours !== null || rules.staffSilentHours !== null);
  // As the member reads it when it is posted: the close `warningHours` away.
  const closesAt = now + rules.warningHours * 3_600_000;
  return (
    <div className="space-y-2 p-3">
      {own.length > 0 ? (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <label htmlFor={id} className="text-(--d-muted)">
            {t('autoClose.preview.for')}
          </label>
          <select id={id} className={cx(inputClasses, 'w-auto min-w-0 flex-1 py-1 text-sm')} value={which} onChange={(event) => setWhich(event.target.value)}>
            <option value="">{t('autoClose.preview.server')}</option>
            {own.map((panel) => (
              <option key={panel.id} value={panel.id}>
                {panel.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {warns ? (
        <MessagePreview
          botName="Tickety"
          payload={{
            content: autoCloseWarning(rules, language, EXAMPLE_MEMBER, closesAt),
            components: [{ type: 1, components: [{ type: 2, style: DISCORD_BUTTON_STYLE.primary, label: AUTO_CLOSE_KEEP_OPEN_LABEL[language], custom_id: AUTO_CLOSE_KEEP_OPEN_ID }] }],
          }}
        />
      ) : (
        <p className="px-1 py-4 text-sm text-(--d-muted)">{t('autoClose.preview.none')}</p>
      )}
    </div>
  );
}

export default function Section({ server, live, onSaved, onRefetch }: SectionProps) {
  const t = useT();
  const [now] = useState(() => Date.now());
  const pristine = useMemo(() => TARGET.from(live.config)!, [live.config]);
  const editor = useConfigEditor<AutoCloseDraft>({ server, base: live, initial: pristine, pristine, target: TARGET, onSaved: (saved) => onSaved(saved), refetch: onRefetch });
  const { draft } = editor;
  const panels = editor.base.config.panels;
  const fieldLabel = (path: string): string | null => {
    const key = path.split('.').at(-1);
    const panel = path.startsWith('panels.') ? panels.find((p) => p.id === path.split('.')[1]) : undefined;
    const label = key === 'memberSilentHours' || key === 'staffSilentHours' || key === 'warningHours' || key === 'warningMessage' ? t(`autoClose.${key}`) : null;
    return label && panel ? `${panel.name}: ${label}` : label;
  };

  return (
    <EditorFrame
      editor={editor}
      title={t('autoClose.title')}
      label={t('autoClose.title')}
      backHref={href('/dashboard/:server/configs/automation', { server })}
      backLabel={t('autoClose.back')}
      view={{ kind: 'settings' }}
      stashKey="automation:auto-close"
      flash={null}
      restored={false}
      onLeftDirty={() => undefined}
      fieldLabel={fieldLabel}
      preview={
        <PreviewPane
          tabs={[{ id: 'warning', label: t('autoClose.preview.warning'), render: () => <WarningPreview draft={draft} config={editor.base.config} now={now} /> }]}
          note={t('autoClose.preview.note', { timeVar: '{time}' })}
        />
      }
    >
      <FieldSection title={t('autoClose.server.title')} description={t('autoClose.server.hint')}>
        <RulesFields prefix="autoClose" rules={draft.server} onChange={(rules) => editor.update((d) => ({ ...d, server: rules }))} />
      </FieldSection>
      <FieldSection title={t('autoClose.panels.title')} description={t('autoClose.panels.hint')}>
        {panels.length === 0 ? <p className="text-sm text-surface-600 dark:text-surface-400">{t('autoClose.panels.none')}</p> : null}
        <ul className="space-y-3">
          {panels.map((panel) => {
            const own = draft.panels[panel.id] ?? null;
            return (
              <li key={panel.id} className="space-y-3 rounded-lg border border-surface-200 p-3 dark:border-surface-700">
                <ChoiceGroup<'server' | 'own'>
                  path={`panels.${panel.id}.autoClose`}
                  legend={t('autoClose.panel.rules', { name: panel.name })}
                  value={own ? 'own' : 'server'}
                  onChange={(choice) => editor.update((d) => ({ ...d, panels: { ...d.panels, [panel.id]: choice === 'own' ? { ...d.server } : null } }))}
                  options={[
                    { value: 'server', label: t('autoClose.panel.server') },
                    { value: 'own', label: t('autoClose.panel.own') },
                  ]}
                />
                {own ? (
                  <RulesFields prefix={`panels.${panel.id}.autoClose`} rules={own} onChange={(rules) => editor.update((d) => ({ ...d, panels: { ...d.panels, [panel.id]: rules } }))} />
                ) : (
                  <RulesSummary rules={draft.server} />
                )}
              </li>
            );
          })}
        </ul>
      </FieldSection>
    </EditorFrame>
  );
}
