/**
 * The Automation page's first view: what each setting does now, in a sentence or two, with the way to
 * change it. Reads the configuration only (no schema, no pickers): the editors are the tabs' chunks.
 */
import type { Panel, ServerConfig } from '@tickety/api-contract';
import { Link } from '@tickety/shared';
import { Badge, buttonClasses, Card } from '@tickety/ui';
import Ban from 'lucide-react/icons/ban';
import Clock from 'lucide-react/icons/clock';
import MessageSquareText from 'lucide-react/icons/message-square-text';
import Star from 'lucide-react/icons/star';
import type { ReactNode } from 'react';
import { href } from '../../../lib/hrefs';
import type { LiveConfig } from '../api';
import { useT } from './i18n';
import type { AutomationTab } from './section-props';
import { SECTIONS } from './sections';

function SettingCard({ server, tab, icon, lines, on }: { server: string; tab: AutomationTab; icon: ReactNode; lines: string[]; on: boolean }) {
  const t = useT();
  const headingId = `automation-${tab}`;
  return (
    <Card className="flex flex-col p-4" aria-labelledby={headingId}>
      <div className="flex items-start justify-between gap-3">
        <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold text-surface-900 dark:text-surface-50">
          <span className="text-primary-600 dark:text-primary-400">{icon}</span>
          {t(`automation.tab.${tab}`)}
        </h2>
        <Badge tone={on ? 'primary' : 'neutral'}>{t(on ? 'automation.on' : 'automation.off')}</Badge>
      </div>
      <ul className="mt-2 flex-1 space-y-1 text-sm text-surface-700 dark:text-surface-300">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {SECTIONS[tab] ? (
        <Link to={href('/dashboard/:server/configs/automation', { server }, { tab })} className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'mt-4 self-start' })}>
          {t('automation.open', { name: t(`automation.tab.${tab}`) })}
        </Link>
      ) : null}
    </Card>
  );
}

function ownRules(panels: readonly Panel[], has: (panel: Panel) => boolean): number {
  return panels.filter(has).length;
}

function autoCloseLines(config: ServerConfig, t: ReturnType<typeof useT>): { lines: string[]; on: boolean } {
  const rules = config.autoClose;
  const lines: string[] = [];
  if (rules.memberSilentHours !== null) lines.push(t('automation.autoClose.member', { hours: rules.memberSilentHours }));
  if (rules.staffSilentHours !== null) lines.push(t('automation.autoClose.staff', { hours: rules.staffSilentHours }));
  if (rules.onOpenerLeave) lines.push(t('automation.autoClose.leave'));
  const on = lines.length > 0;
  if (!on) lines.push(t('automation.autoClose.none'));
  else if (rules.warningHours > 0) lines.push(t('automation.autoClose.warning', { hours: rules.warningHours }));
  const own = ownRules(config.panels, (panel) => panel.autoClose !== null);
  if (own > 0) lines.push(t('automation.panelsOwn', { count: own }));
  return { lines, on: on || own > 0 };
}

export function Overview({ server, live }: { server: string; live: LiveConfig }) {
  const t = useT();
  const { config } = live;
  const now = Date.now();
  const expired = config.blocklist.filter((entry) => entry.expiresAt !== null && Date.parse(entry.expiresAt) <= now).length;
  const feedbackPanels = config.panels.filter((panel) => panel.feedback ?? config.feedback.enabled).length;
  const autoClose = autoCloseLines(config, t);
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <SettingCard server={server} tab="auto-close" icon={<Clock aria-hidden="true" className="size-5" />} lines={autoClose.lines} on={autoClose.on} />
      <SettingCard
        server={server}
        tab="tags"
        icon={<MessageSquareText aria-hidden="true" className="size-5" />}
        on={config.tags.length > 0}
        lines={[
          t('automation.tags.count', { count: config.tags.length, limit: live.tagLimit }),
          ...(config.tags.length > 0 ? [config.tags.slice(0, 6).map((tag) => `/${tag.name}`).join(' · ') + (config.tags.length > 6 ? ' …' : '')] : [t('automation.tags.none')]),
        ]}
      />
      <SettingCard
        server={server}
        tab="blocklist"
        icon={<Ban aria-hidden="true" className="size-5" />}
        on={config.blocklist.length > expired}
        lines={[
          t('automation.blocklist.count', { count: config.blocklist.length, limit: live.blocklistLimit }),
          ...(expired > 0 ? [t('automation.blocklist.expired', { count: expired })] : []),
          ...(config.blocklist.length === 0 ? [t('automation.blocklist.none')] : []),
        ]}
      />
      <SettingCard
        server={server}
        tab="feedback"
        icon={<Star aria-hidden="true" className="size-5" />}
        on={feedbackPanels > 0}
        lines={[
          t(config.feedback.enabled ? 'automation.feedback.default.on' : 'automation.feedback.default.off'),
          t('automation.feedback.panels', { count: feedbackPanels, total: config.panels.length }),
        ]}
      />
    </div>
  );
}
