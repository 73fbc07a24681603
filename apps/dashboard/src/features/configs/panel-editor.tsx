import {
  BUTTON_LABEL_MAX,
  BUTTON_STYLES,
  type ButtonStyle,
  buildPanelMessage,
  CHANNEL_NAME_MAX,
  COMPONENT_TYPE,
  DISCORD_BUTTON_STYLE,
  type DiscordMessagePayload,
  embedPayload,
  MODAL_TITLE_MAX,
  NAMING_SCHEME_VARIABLES,
  OPEN_TICKETS_PER_PANEL_MAX,
  OPEN_TICKETS_PER_USER_MAX,
  PANEL_ROLES_MAX,
  type Panel,
  type ServerConfig,
} from '@tickety/api-contract';
import { useRuntimeConfig } from '@tickety/shared';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { MessagePreview } from '../../components/discord/message-preview';
import { href } from '../../lib/hrefs';
import { useT } from './i18n';
import { copyId, copyOf, freeId, newPanel, usedIds, withPanel } from './config-edit';
import { EditorFrame } from './editor-frame';
import type { EditorProps } from './editor-props';
import { EmbedFields } from './embed-fields';
import { ChoiceGroup, NumberInput, Section, SelectInput, TextInput, Toggle } from './fields';
import { FormQuestions } from './form-questions';
import { NotFound } from './not-found';
import { panelIssuesUnchanged } from './panel-issues';
import { ChannelPicker, channelLabel, EmojiField, RolePicker, useResources } from './pickers';
import { FormModalPreview, PreviewPane } from './preview-pane';
import { SupportHoursFields } from './support-hours';
import { type EditorTarget, useConfigEditor } from './use-config-editor';

const STYLE_SWATCH: Record<ButtonStyle, string> = { primary: '#5865f2', secondary: '#4e5058', success: '#248046', danger: '#da373c' };
const VARIABLES = NAMING_SCHEME_VARIABLES.map((v) => `{${v}}`);

type Tri = 'default' | 'on' | 'off';
const toTri = (v: boolean | null): Tri => (v === null ? 'default' : v ? 'on' : 'off');
const fromTri = (v: Tri): boolean | null => (v === 'default' ? null : v === 'on');

/** The draft a panel editor starts with: the saved panel, a copy, or a new one in the reader's words. */
function startingPanel(view: EditorProps['view'], config: ServerConfig, t: ReturnType<typeof useT>): Panel | undefined {
  if (view.id) return config.panels.find((p) => p.id === view.id);
  const used = usedIds(config);
  const source = view.copy ? config.panels.find((p) => p.id === view.copy) : undefined;
  if (source) return copyOf(source, copyId(used, source.id), t('editor.copyName', { name: source.name }));
  return newPanel(freeId(used, 'panel'), { name: t('panel.new.name'), title: t('panel.new.title'), description: t('panel.new.description'), button: t('panel.new.button') });
}

/** The ticket's first message as the bot posts it: the pings, the welcome embed, Close and Claim. */
function welcomePayload(panel: Panel, general: ServerConfig['general'], t: ReturnType<typeof useT>): DiscordMessagePayload {
  const pings = [...panel.pingRoleIds.map((id) => `<@&${id}>`), '<@0>'].join(' ');
  const claiming = panel.claiming ?? general.claiming;
  return {
    content: pings,
    embeds: [panel.welcomeMessage ? embedPayload(panel.welcomeMessage) : { description: t('preview.welcomeDefault'), color: 0x5865f2 }],
    components: [
      {
        type: COMPONENT_TYPE.ACTION_ROW,
        components: [
          { type: COMPONENT_TYPE.BUTTON, style: DISCORD_BUTTON_STYLE.danger, label: t('preview.close'), emoji: { name: '🔒' }, custom_id: 'close' },
          ...(claiming ? [{ type: COMPONENT_TYPE.BUTTON, style: DISCORD_BUTTON_STYLE.success, label: t('preview.claim'), emoji: { name: '🙋' }, custom_id: 'claim' } as const] : []),
        ],
      },
    ],
  };
}

/** Field labels for the list of problems, by the draft's own paths. */
function usePanelFieldLabel() {
  const t = useT();
  return (path: string): string | null => {
    const fixed: Record<string, string> = {
      name: t('panel.name'),
      id: t('panel.name'),
      'embed.title': t('field.title'),
      'embed.description': t('field.description'),
      'embed.colour': t('field.colour'),
      'embed.imageUrl': t('field.imageUrl'),
      'embed.thumbnailUrl': t('field.thumbnailUrl'),
      'embed.footer': t('field.footer'),
      embed: t('panel.section.message'),
      'button.label': t('panel.buttonLabel'),
      'button.emoji': t('emoji.legend'),
      namingScheme: t('panel.namingScheme'),
      perUserLimit: t('panel.perUserLimit'),
      perPanelLimit: t('panel.perPanelLimit'),
      supportRoleIds: t('panel.supportRoles'),
      additionalRoleIds: t('panel.additionalRoles'),
      pingRoleIds: t('panel.pingRoles'),
      formTitle: t('panel.formTitle'),
      form: t('panel.section.form'),
      supportHours: t('panel.section.hours'),
      'supportHours.timeZone': t('hours.timeZone'),
      'supportHours.outOfHoursMessage': t('hours.message'),
      'supportHours.hours': t('hours.week'),
    };
    if (fixed[path]) return fixed[path]!;
    const welcome = /^welcomeMessage\.(\w+)$/.exec(path);
    if (welcome) return `${t('panel.section.welcome')}: ${fixed[`embed.${welcome[1]}`] ?? ''}`;
    const question = /^form\.(\d+)\.(\w+)$/.exec(path);
    if (question) return t('form.question', { number: Number(question[1]) + 1 });
    const role = /^(\w+RoleIds)\.\d+$/.exec(path);
    if (role) return fixed[role[1]!] ?? null;
    if (path.startsWith('supportHours.hours.')) return t('hours.week');
    return null;
  };
}

/** The editor of one panel: its message, button, tickets, roles, welcome message, form and support hours. */
export function PanelEditor({ server, view, live, restored, flash, onRestored, onLeftDirty, onSaved, onRefetch }: EditorProps) {
  const t = useT();
  const runtime = useRuntimeConfig();
  const resources = useResources();
  const fieldLabel = usePanelFieldLabel();
  const start = useState(() => {
    if (restored) {
      return { base: restored.base, initial: restored.draft as Panel, pristine: startingPanel(view, restored.base.config, t) ?? (restored.draft as Panel), restored: true };
    }
    const panel = startingPanel(view, live.config, t);
    return panel ? { base: live, initial: panel, pristine: panel, restored: false } : null;
  })[0];
  const originalId = view.id;
  // The kept draft is in use: the page forgets it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the editor opens
  useEffect(() => {
    if (start?.restored) onRestored();
  }, []);

  const target = useMemo<EditorTarget<Panel>>(
    () => ({
      from: (config) => (originalId ? config.panels.find((p) => p.id === originalId) : undefined),
      apply: (config, draft) => withPanel(config, draft, originalId),
      own: (path, applied, draft) => {
        const index = applied.panels.indexOf(draft);
        return path[0] === 'panels' && path[1] === index ? path.slice(2).join('.') : null;
      },
      rebase: (draft, config) => (originalId === null && usedIds(config).has(draft.id) ? { ...draft, id: freeId(usedIds(config), 'panel') } : draft),
      sameIssues: panelIssuesUnchanged,
      savedView: (draft) => ({ kind: 'panel', id: draft.id, copy: null }),
    }),
    [originalId],
  );

  const editor = useConfigEditor<Panel>({
    server,
    base: start?.base ?? live,
    initial: start?.initial ?? newPanel('missing', { name: '', title: '', description: '', button: '' }),
    pristine: start?.pristine ?? newPanel('missing', { name: '', title: '', description: '', button: '' }),
    target,
    onSaved,
    refetch: onRefetch,
  });

  const panel = editor.draft;
  const general = editor.base.config.general;
  const premium = editor.base.premium;
  const { update } = editor;
  const set = useCallback(<K extends keyof Panel>(key: K, value: Panel[K]) => update((d) => ({ ...d, [key]: value })), [update]);
  const channels = resources.data?.channels;
  const channelName = useCallback(
    (id: string | null, empty: string) => {
      if (id === null) return empty;
      const channel = channels?.find((x) => x.id === id);
      return channel ? channelLabel(channel) : t('picker.channelId', { id });
    },
    [channels, t],
  );

  // Each section and the preview are built again only when the part of the draft they show changes:
  // a key press in one field renders that field's section and the preview, not the whole form.
  const basics = useMemo(
    () => (
      <Section title={t('panel.section.basics')}>
        <TextInput path="name" label={t('panel.name')} value={panel.name} onChange={(v) => set('name', v)} max={CHANNEL_NAME_MAX} required hint={t('panel.nameHint')} />
      </Section>
    ),
    [panel.name, set, t],
  );
  const message = useMemo(
    () => (
      <Section title={t('panel.section.message')} description={t('panel.section.messageHint')}>
        <EmbedFields path="embed" value={panel.embed} onChange={(v) => set('embed', v)} />
      </Section>
    ),
    [panel.embed, set, t],
  );
  const button = useMemo(
    () => (
      <Section title={t('panel.section.button')}>
        <TextInput path="button.label" label={t('panel.buttonLabel')} value={panel.button.label} onChange={(v) => set('button', { ...panel.button, label: v })} max={BUTTON_LABEL_MAX} hint={t('panel.buttonLabelHint')} />
        <EmojiField path="button.emoji" value={panel.button.emoji} onChange={(v) => set('button', { ...panel.button, emoji: v })} />
        <ChoiceGroup<ButtonStyle>
          path="button.style"
          legend={t('panel.buttonStyle')}
          value={panel.button.style}
          onChange={(style) => set('button', { ...panel.button, style })}
          options={BUTTON_STYLES.map((style) => ({
            value: style,
            label: (
              <span className="inline-flex items-center gap-1.5">
                <span aria-hidden="true" className="size-3 rounded-sm" style={{ backgroundColor: STYLE_SWATCH[style] }} />
                {t(`panel.buttonStyle.${style}`)}
              </span>
            ),
          }))}
        />
      </Section>
    ),
    [panel.button, set, t],
  );
  const { categoryId, namingScheme, perUserLimit, perPanelLimit, claiming, twoStepClose, transcriptChannelId } = panel;
  const tickets = useMemo(
    () => (
      <Section title={t('panel.section.tickets')} description={t('panel.section.ticketsHint')}>
        <ChannelPicker
          path="categoryId"
          kind="category"
          label={t('panel.category')}
          value={categoryId}
          onChange={(v) => set('categoryId', v)}
          emptyText={t('panel.serverDefault', { value: channelName(general.defaultCategoryId, t('panel.noCategory')) })}
        />
        <TextInput
          path="namingScheme"
          label={t('panel.namingScheme')}
          value={namingScheme ?? ''}
          onChange={(v) => set('namingScheme', v === '' ? null : v)}
          max={CHANNEL_NAME_MAX}
          placeholder={general.ticketNameScheme}
          inserts={VARIABLES}
          spellCheck={false}
          hint={t('panel.namingSchemeHint', { scheme: general.ticketNameScheme })}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <NumberInput
            path="perUserLimit"
            label={t('panel.perUserLimit')}
            value={perUserLimit}
            onChange={(v) => set('perUserLimit', v)}
            min={1}
            max={OPEN_TICKETS_PER_USER_MAX}
            nullable
            placeholder={String(general.maxOpenTicketsPerUser)}
            hint={t('panel.perUserLimitHint', { max: OPEN_TICKETS_PER_USER_MAX, value: general.maxOpenTicketsPerUser })}
          />
          <NumberInput
            path="perPanelLimit"
            label={t('panel.perPanelLimit')}
            value={perPanelLimit}
            onChange={(v) => set('perPanelLimit', v)}
            min={1}
            max={OPEN_TICKETS_PER_PANEL_MAX}
            nullable
            hint={t('panel.perPanelLimitHint', { max: OPEN_TICKETS_PER_PANEL_MAX })}
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectInput<Tri>
            path="claiming"
            label={t('panel.claiming')}
            value={toTri(claiming)}
            onChange={(v) => set('claiming', fromTri(v))}
            hint={t('panel.claimingHint')}
            options={[
              { value: 'default', label: t('panel.tri.default', { value: general.claiming ? t('panel.tri.on') : t('panel.tri.off') }) },
              { value: 'on', label: t('panel.tri.on') },
              { value: 'off', label: t('panel.tri.off') },
            ]}
          />
          <SelectInput<Tri>
            path="twoStepClose"
            label={t('panel.twoStepClose')}
            value={toTri(twoStepClose)}
            onChange={(v) => set('twoStepClose', fromTri(v))}
            hint={t('panel.twoStepCloseHint')}
            options={[
              { value: 'default', label: t('panel.tri.default', { value: general.twoStepClose ? t('panel.tri.on') : t('panel.tri.off') }) },
              { value: 'on', label: t('panel.tri.on') },
              { value: 'off', label: t('panel.tri.off') },
            ]}
          />
        </div>
        <ChannelPicker
          path="transcriptChannelId"
          kind="text"
          label={t('panel.transcriptChannel')}
          value={transcriptChannelId}
          onChange={(v) => set('transcriptChannelId', v)}
          emptyText={t('panel.serverDefault', { value: channelName(general.transcriptChannelId, t('panel.noTranscripts')) })}
        />
      </Section>
    ),
    [categoryId, namingScheme, perUserLimit, perPanelLimit, claiming, twoStepClose, transcriptChannelId, general, channelName, set, t],
  );
  const { supportRoleIds, additionalRoleIds, pingRoleIds } = panel;
  const roles = useMemo(
    () => (
      <Section title={t('panel.section.roles')} description={t('panel.section.rolesHint')}>
        <RolePicker path="supportRoleIds" label={t('panel.supportRoles')} values={supportRoleIds} onChange={(v) => set('supportRoleIds', v)} max={PANEL_ROLES_MAX} hint={t('panel.supportRolesHint')} />
        <RolePicker path="additionalRoleIds" label={t('panel.additionalRoles')} values={additionalRoleIds} onChange={(v) => set('additionalRoleIds', v)} max={PANEL_ROLES_MAX} hint={t('panel.additionalRolesHint')} />
        <RolePicker path="pingRoleIds" label={t('panel.pingRoles')} values={pingRoleIds} onChange={(v) => set('pingRoleIds', v)} max={PANEL_ROLES_MAX} hint={t('panel.pingRolesHint')} />
      </Section>
    ),
    [supportRoleIds, additionalRoleIds, pingRoleIds, set, t],
  );
  const welcome = useMemo(
    () => (
      <Section title={t('panel.section.welcome')} description={t('panel.section.welcomeHint')}>
        <Toggle
          path="welcomeMessage.custom"
          label={t('panel.welcomeCustom')}
          checked={panel.welcomeMessage !== null}
          onChange={(on) =>
            set('welcomeMessage', on ? { title: '', description: t('preview.welcomeDefault'), colour: 0x5865f2, imageUrl: null, thumbnailUrl: null, footer: '' } : null)
          }
        />
        {panel.welcomeMessage ? <EmbedFields path="welcomeMessage" value={panel.welcomeMessage} onChange={(v) => set('welcomeMessage', v)} /> : null}
      </Section>
    ),
    [panel.welcomeMessage, set, t],
  );
  const form = useMemo(
    () => (
      <Section title={t('panel.section.form')} description={t('panel.section.formHint')}>
        <TextInput
          path="formTitle"
          label={t('panel.formTitle')}
          value={panel.formTitle ?? ''}
          onChange={(v) => set('formTitle', v === '' ? null : v)}
          max={MODAL_TITLE_MAX}
          placeholder={[...panel.name].slice(0, MODAL_TITLE_MAX).join('')}
          hint={t('panel.formTitleHint')}
        />
        <FormQuestions path="form" value={panel.form} onChange={(v) => set('form', v)} />
      </Section>
    ),
    [panel.formTitle, panel.name, panel.form, set, t],
  );
  const hours = useMemo(
    () => (
      <Section title={t('panel.section.hours')} description={t('panel.section.hoursHint')}>
        <SupportHoursFields path="supportHours" value={panel.supportHours} onChange={(v) => set('supportHours', v)} premium={premium} />
      </Section>
    ),
    [panel.supportHours, premium, set, t],
  );
  const productName = runtime.productName;
  // The preview follows every key press in the same render (the check trails it); the deferred
  // render of the check leaves it alone.
  const preview = useMemo(() => {
    const formTitle = panel.formTitle ?? [...panel.name].slice(0, MODAL_TITLE_MAX).join('');
    return (
      <PreviewPane
        note={t('preview.note')}
        tabs={[
          { id: 'panel', label: t('preview.tab.panel'), render: () => <MessagePreview payload={buildPanelMessage(panel)} botName={productName} /> },
          { id: 'welcome', label: t('preview.tab.welcome'), render: () => <MessagePreview payload={welcomePayload(panel, general, t)} botName={productName} /> },
          { id: 'form', label: t('preview.tab.form'), render: () => <FormModalPreview title={formTitle} questions={panel.form} /> },
        ]}
      />
    );
  }, [panel, general, productName, t]);

  if (!start) return <NotFound server={server} kind="panel" id={view.id ?? ''} />;

  const listHref = href('/dashboard/:server/configs', { server });
  const title = view.id ? t('panel.editTitle', { name: panel.name }) : t('panel.newTitle');

  return (
    <EditorFrame
      editor={editor}
      title={title}
      label={panel.name}
      backHref={listHref}
      backLabel={t('editor.back')}
      view={view}
      stashKey={view.id ? `panel:${view.id}` : `panel:new${view.copy ? `:${view.copy}` : ''}`}
      flash={flash}
      restored={start.restored}
      onLeftDirty={onLeftDirty}
      fieldLabel={fieldLabel}
      preview={preview}
    >
      {basics}
      {message}
      {button}
      {tickets}
      {roles}
      {welcome}
      {form}
      {hours}
    </EditorFrame>
  );
}
