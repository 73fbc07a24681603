import { NavLink, useParams, useSearchParams } from '@tickety/shared';
import { Alert, Button, PageHeader, Skeleton } from '@tickety/ui';
import Settings from 'lucide-react/icons/settings';
import { Suspense, useCallback, useEffect, useState } from 'react';
import { ListSkeleton } from '../../../components/list-skeleton';
import { failureText } from '../../../lib/failures';
import { href } from '../../../lib/hrefs';
import { useServerName } from '../../../lib/server-access';
import { type LiveConfig, useServerConfigQuery, useServerResourcesQuery } from '../api';
import { tabClasses } from '../tab-classes';
import { useT } from './i18n';
import { Overview } from './overview';
import { AUTOMATION_TABS, type AutomationTab } from './section-props';
import { SECTIONS } from './sections';

const TABS = AUTOMATION_TABS.filter((tab) => SECTIONS[tab] !== undefined);

/** The tab the address names; none (or one without a section): the overview. */
function tabOf(value: string | null): AutomationTab | undefined {
  return TABS.find((tab) => tab === value);
}

function SectionSkeleton() {
  const t = useT();
  return (
    <div aria-busy="true" className="space-y-4">
      <span role="status" className="sr-only">
        {t('automation.sectionLoading')}
      </span>
      <Skeleton className="h-8 w-1/2" />
      <Skeleton className="h-40 w-full" />
      <Skeleton className="h-24 w-full" />
    </div>
  );
}

function AutomationTabs({ server, active }: { server: string; active: AutomationTab | undefined }) {
  const t = useT();
  return (
    <nav aria-label={t('automation.tabs')} className="mb-6 flex gap-1 overflow-x-auto border-b border-surface-200 dark:border-surface-800">
      {([undefined, ...TABS] as const).map((tab) => (
        <NavLink
          key={tab ?? 'overview'}
          to={href('/dashboard/:server/configs/automation', { server }, tab === undefined ? {} : { tab })}
          end
          aria-current={tab === active ? 'page' : undefined}
          className={() => tabClasses(tab === active)}
        >
          {t(`automation.tab.${tab ?? 'overview'}`)}
        </NavLink>
      ))}
    </nav>
  );
}

/**
 * Automation (/dashboard/:server/configs/automation?tab=…): the settings the bot applies by itself,
 * part of the server's configuration (each save a version, in Web Logs, export and import). The page
 * holds the reads (the configuration, read anew on each visit; the channels, roles and emojis). It
 * opens on an overview of the four settings; each tab is a section of its own chunk (its editor,
 * the shared schema, the pickers) that edits its part and saves the whole configuration.
 */
export default function Automation() {
  const t = useT();
  const { server = '' } = useParams();
  const serverName = useServerName();
  const [params] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  const skip = server === '';
  const config = useServerConfigQuery(server, { refetchOnMountOrArgChange: true, skip });
  const resources = useServerResourcesQuery(server, { skip });
  const [flash, setFlash] = useState<{ tab: AutomationTab | undefined; text: string } | null>(null);
  const { refetch: refetchConfig } = config;
  const { refetch: refetchResources } = resources;

  useEffect(() => setFlash((current) => (current && current.tab === tab ? current : null)), [tab]);
  const onSaved = useCallback((live: LiveConfig) => setFlash({ tab, text: t('editor.saved', { version: live.version }) }), [tab, t]);
  const onRefetch = useCallback(() => refetchConfig().unwrap(), [refetchConfig]);
  const retryResources = useCallback(() => void refetchResources(), [refetchResources]);

  const Section = tab ? SECTIONS[tab] : undefined;
  return (
    <div>
      <PageHeader
        title={
          <span className="flex min-w-0 items-center gap-3">
            <Settings aria-hidden="true" className="size-7 shrink-0 text-primary-600 dark:text-primary-400" />
            <span className="min-w-0 break-words">{t('title.serverAutomation')}</span>
          </span>
        }
        description={t('automation.description', { server: serverName ?? '', hasName: serverName === null ? 'no' : 'yes' })}
      />
      <AutomationTabs server={server} active={tab} />
      {config.data === undefined ? (
        config.isError ? (
          <Alert
            tone="danger"
            title={t('menu.loadFailed')}
            actions={
              <Button variant="secondary" size="sm" onClick={() => void refetchConfig()}>
                {t('common.retry')}
              </Button>
            }
          >
            {failureText(config.error)}
          </Alert>
        ) : (
          <ListSkeleton label={t('automation.loading')} rows={3} lead="preview" heading />
        )
      ) : Section ? (
        <>
          {flash && flash.tab === tab ? (
            <Alert tone="primary" className="mb-4">
              {flash.text}
            </Alert>
          ) : null}
          <Suspense fallback={<SectionSkeleton />}>
            <Section key={tab} server={server} live={config.data} onSaved={onSaved} onRefetch={onRefetch} retryResources={retryResources} />
          </Suspense>
        </>
      ) : (
        <Overview server={server} live={config.data} />
      )}
    </div>
  );
}
