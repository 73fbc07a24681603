import type { EmbedConfig, PanelButton, ServerResources } from '@tickety/api-contract';
import { LOCALE_NAMES, type Locale } from '@tickety/shared';
import { Badge } from '@tickety/ui';
import { type ReactNode, useId } from 'react';
import { MiniPreview } from '../../components/mini-preview';
import { type MessageKey, useT } from './i18n';
import { useServerResourcesQuery } from '../configs/api';

type Loose = Record<string, unknown>;

function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): Loose[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Channel and role names of this server (ids when they cannot be read, or no longer exist). */
function useNames(server: string) {
  const resources: ServerResources | undefined = useServerResourcesQuery(server, { skip: server === '' }).data;
  const channels = new Map((resources?.channels ?? []).map((c) => [c.id, c.name]));
  const roles = new Map((resources?.roles ?? []).map((r) => [r.id, r.name]));
  return {
    channel: (id: unknown, kind: 'channel' | 'category' = 'channel') => {
      if (typeof id !== 'string') return null;
      const name = channels.get(id);
      return name === undefined ? id : kind === 'category' ? name : `#${name}`;
    },
    role: (id: unknown) => (typeof id === 'string' ? (roles.has(id) ? `@${roles.get(id)}` : id) : null),
  };
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5 sm:flex-row sm:gap-2">
      <dt className="shrink-0 text-surface-600 sm:w-48 dark:text-surface-400">{label}</dt>
      <dd className="min-w-0 break-words text-surface-900 [overflow-wrap:anywhere] dark:text-surface-100">{children}</dd>
    </div>
  );
}

function Muted({ children }: { children: ReactNode }) {
  return <span className="italic text-surface-500 dark:text-surface-400">{children}</span>;
}

function Quoted({ value }: { value: string }) {
  const t = useT();
  return (
    <span className="whitespace-pre-wrap">
      {t('changes.quoteOpen')}
      {value}
      {t('changes.quoteClose')}
    </span>
  );
}

/** The automation settings of a version: what the auto-close rules were, the tags, the blocklist, feedback. */
function AutomationSummary({ id, config, heading }: { id: string; config: Loose; heading: string }) {
  const t = useT();
  const rules = isObject(config.autoClose) ? config.autoClose : {};
  const hours = (value: unknown) => (typeof value === 'number' ? t('restore.summary.hours', { count: value }) : <Muted>{t('restore.summary.never')}</Muted>);
  const tags = list(config.tags);
  const blocklist = list(config.blocklist);
  const feedback = isObject(config.feedback) ? config.feedback : {};
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className={heading}>
        {t('restore.summary.automation')}
      </h3>
      <dl className="mt-2 space-y-1.5">
        <Field label={t('restore.summary.memberSilent')}>{hours(rules.memberSilentHours)}</Field>
        <Field label={t('restore.summary.staffSilent')}>{hours(rules.staffSilentHours)}</Field>
        <Field label={t('restore.summary.openerLeaves')}>{t(rules.onOpenerLeave === true ? 'changes.value.yes' : 'changes.value.no')}</Field>
        <Field label={t('restore.summary.tags', { count: tags.length })}>
          {tags.length > 0 ? tags.map((tag) => `/${text(tag.name)}`).join(', ') : <Muted>{t('changes.value.none')}</Muted>}
        </Field>
        <Field label={t('restore.summary.blocklist')}>{blocklist.length > 0 ? t('restore.summary.entries', { count: blocklist.length }) : <Muted>{t('changes.value.none')}</Muted>}</Field>
        <Field label={t('restore.summary.feedback')}>{t(feedback.enabled === true ? 'changes.value.yes' : 'changes.value.no')}</Field>
      </dl>
    </section>
  );
}

/**
 * What a configuration holds, readable: the general settings, who has dashboard access, each panel
 * by name with a small preview and its key settings, the automation settings, and each multi-panel
 * with the panels it offers.
 */
export function ConfigSummary({ server, config }: { server: string; config: Loose }) {
  const t = useT();
  const names = useNames(server);
  const id = useId();
  const general = isObject(config.general) ? config.general : {};
  const panels = list(config.panels);
  const multiPanels = list(config.multiPanels);
  const access = list(config.access);
  const panelNames = new Map(panels.map((p) => [text(p.id), text(p.name) || text(p.id)]));
  const yesNo = (value: unknown, inherit: MessageKey = 'changes.value.serverDefault') =>
    typeof value === 'boolean' ? t(value ? 'changes.value.yes' : 'changes.value.no') : <Muted>{t(inherit)}</Muted>;
  const orNot = (value: string | null, none: MessageKey = 'changes.value.notSet') => (value ? value : <Muted>{t(none)}</Muted>);
  const roleList = (ids: unknown) => {
    const all = Array.isArray(ids) ? ids.map((id) => names.role(id)).filter((n): n is string => n !== null) : [];
    return all.length > 0 ? all.join(', ') : <Muted>{t('changes.value.none')}</Muted>;
  };
  const heading = 'text-base font-semibold text-surface-900 dark:text-surface-50';

  return (
    <div className="space-y-6 text-sm">
      <section aria-labelledby={`${id}-general`}>
        <h3 id={`${id}-general`} className={heading}>
          {t('changes.general')}
        </h3>
        <dl className="mt-2 space-y-1.5">
          <Field label={t('changes.field.defaultCategoryId')}>{orNot(names.channel(general.defaultCategoryId, 'category'))}</Field>
          <Field label={t('changes.field.transcriptChannelId')}>{orNot(names.channel(general.transcriptChannelId))}</Field>
          <Field label={t('changes.field.logChannelId')}>{orNot(names.channel(general.logChannelId))}</Field>
          <Field label={t('changes.field.namingScheme')}>
            <code className="font-mono text-xs">{text(general.ticketNameScheme)}</code>
          </Field>
          <Field label={t('changes.field.perUserLimit')}>{typeof general.maxOpenTicketsPerUser === 'number' ? general.maxOpenTicketsPerUser : <Muted>{t('changes.value.notSet')}</Muted>}</Field>
          <Field label={t('changes.field.claiming')}>{yesNo(general.claiming)}</Field>
          <Field label={t('changes.field.twoStepClose')}>{yesNo(general.twoStepClose)}</Field>
          <Field label={t('changes.field.language')}>{LOCALE_NAMES[text(general.language) as Locale] ?? text(general.language)}</Field>
        </dl>
      </section>

      <section aria-labelledby={`${id}-access`}>
        <h3 id={`${id}-access`} className={heading}>
          {t('changes.access')}
        </h3>
        {access.length === 0 ? (
          <p className="mt-2">
            <Muted>{t('restore.summary.noAccessRules')}</Muted>
          </p>
        ) : (
          <ul className="mt-2 space-y-1">
            {access.map((rule) => (
              <li key={text(rule.roleId)} className="break-words [overflow-wrap:anywhere]">
                <span className="font-medium">{names.role(rule.roleId)}</span>
                {': '}
                {Object.entries(isObject(rule.areas) ? rule.areas : {})
                  .map(([area, level]) => `${t(`settings.area.${area}` as MessageKey)} (${t(`settings.level.${String(level)}` as MessageKey)})`)
                  .join(', ')}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby={`${id}-panels`}>
        <h3 id={`${id}-panels`} className={heading}>
          {t('restore.summary.panels', { count: panels.length })}
        </h3>
        {panels.length === 0 ? (
          <p className="mt-2">
            <Muted>{t('restore.summary.noPanels')}</Muted>
          </p>
        ) : (
          <ul className="mt-2 space-y-3">
            {panels.map((panel) => {
              const embed = (isObject(panel.embed) ? panel.embed : {}) as EmbedConfig;
              const button = (isObject(panel.button) ? panel.button : {}) as PanelButton;
              const form = list(panel.form);
              return (
                <li key={text(panel.id)} className="rounded-lg border border-surface-200 p-3 dark:border-surface-800">
                  <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
                    <MiniPreview embed={embed} buttons={[button]} />
                    <div className="min-w-0 flex-1">
                      <h4 className="break-words font-semibold text-surface-900 [overflow-wrap:anywhere] dark:text-surface-50">{text(panel.name)}</h4>
                      <dl className="mt-1.5 space-y-1">
                        <Field label={t('changes.field.title')}>{text(embed.title) ? <Quoted value={text(embed.title)} /> : <Muted>{t('changes.value.empty')}</Muted>}</Field>
                        <Field label={t('changes.field.button')}>
                          {typeof button.emoji === 'string' ? `${button.emoji} ` : ''}
                          <Quoted value={text(button.label)} />
                        </Field>
                        <Field label={t('changes.field.categoryId')}>{orNot(names.channel(panel.categoryId, 'category'), 'changes.value.serverDefault')}</Field>
                        <Field label={t('changes.field.supportRoleIds')}>{roleList(panel.supportRoleIds)}</Field>
                        <Field label={t('changes.field.form')}>{form.length > 0 ? t('changes.value.questions', { count: form.length }) : <Muted>{t('changes.value.none')}</Muted>}</Field>
                        <Field label={t('changes.field.claiming')}>{yesNo(panel.claiming)}</Field>
                        {panel.supportHours ? (
                          <Field label={t('changes.field.supportHours')}>
                            <Badge tone="info">{text(isObject(panel.supportHours) ? panel.supportHours.timeZone : '') || t('changes.value.yes')}</Badge>
                          </Field>
                        ) : null}
                      </dl>
                    </div>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      <AutomationSummary id={`${id}-automation`} config={config} heading={heading} />

      {multiPanels.length > 0 ? (
        <section aria-labelledby={`${id}-multi`}>
          <h3 id={`${id}-multi`} className={heading}>
            {t('restore.summary.multiPanels', { count: multiPanels.length })}
          </h3>
          <ul className="mt-2 space-y-3">
            {multiPanels.map((multi) => {
              const embed = (isObject(multi.embed) ? multi.embed : {}) as EmbedConfig;
              const offered = Array.isArray(multi.panelIds) ? multi.panelIds.map((id) => panelNames.get(String(id)) ?? String(id)) : [];
              const offeredPanels = Array.isArray(multi.panelIds) ? multi.panelIds.map((id) => panels.find((p) => p.id === id)).filter((p): p is Loose => p !== undefined) : [];
              const select = multi.mode === 'select' ? text(multi.selectPlaceholder) || t('multi.mode.select') : undefined;
              return (
                <li key={text(multi.id)} className="rounded-lg border border-surface-200 p-3 dark:border-surface-800">
                  <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
                    <MiniPreview embed={embed} buttons={offeredPanels.map((p) => (isObject(p.button) ? p.button : {}) as PanelButton)} select={select} />
                    <div className="min-w-0 flex-1">
                      <h4 className="break-words font-semibold text-surface-900 [overflow-wrap:anywhere] dark:text-surface-50">{text(multi.name)}</h4>
                      <dl className="mt-1.5 space-y-1">
                        <Field label={t('changes.field.mode')}>{t(multi.mode === 'select' ? 'multi.mode.select' : 'multi.mode.buttons')}</Field>
                        <Field label={t('changes.field.panelIds')}>{offered.length > 0 ? offered.map((name) => `${t('changes.quoteOpen')}${name}${t('changes.quoteClose')}`).join(', ') : <Muted>{t('changes.value.none')}</Muted>}</Field>
                      </dl>
                    </div>
                  </div>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
