import { selectOpenServer, useAppSelector } from '@tickety/shared';
import { Alert, Card, PageHeader } from '@tickety/ui';
import type { LucideIcon } from 'lucide-react';
import Construction from 'lucide-react/icons/construction';
import type { ReactNode } from 'react';
import { type MessageKey, useT } from '../lib/i18n';

/** A server page's texts, as catalogue keys (shown in the active language when the page renders). */
export interface ServerPageInfo {
  /** The page's name: the route's sidebar label (`sidebar.<page>`). */
  name: MessageKey;
  icon: LucideIcon;
  /** One line: what the page does for this server (a message with `{server}` and `{hasName, select, ...}`). */
  description: MessageKey;
  /** What is missing in this version, shown as "<feature>: not available yet". */
  feature: MessageKey;
  /** What the page will hold. */
  upcoming: MessageKey[];
  /** Real links that already work (e.g. to the premium plans). */
  links?: ReactNode;
}

/** The open server's name (the shell's server layout marks the server it checked access to); null when unknown. */
export function useServerName(): string | null {
  return useAppSelector(selectOpenServer)?.name ?? null;
}

/**
 * The frame of a server dashboard page whose content comes in a later version: its header, an honest
 * notice, and what the page will hold. No sample data and no buttons that do nothing.
 */
export function ServerPageFrame({ info }: { info: ServerPageInfo }) {
  const t = useT();
  const serverName = useServerName();
  // Messages name the server, or say "this server" in the grammatical form their language needs.
  const server = { server: serverName ?? '', hasName: serverName === null ? 'no' : 'yes' };
  const Icon = info.icon;
  return (
    <div>
      <PageHeader
        title={
          <span className="flex min-w-0 items-center gap-3">
            <Icon aria-hidden="true" className="size-7 shrink-0 text-primary-600 dark:text-primary-400" />
            <span className="min-w-0 break-words">{t(info.name)}</span>
          </span>
        }
        description={t(info.description, server)}
      />
      <Alert tone="info" icon={<Construction aria-hidden="true" className="size-4" />} title={t('server.frame.notAvailable', { feature: t(info.feature) })}>
        {t('server.frame.notice', server)}
      </Alert>
      <Card className="mt-6 p-5">
        <h2 className="font-semibold text-surface-900 dark:text-surface-50">{t('server.frame.upcoming')}</h2>
        <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-surface-700 dark:text-surface-300">
          {info.upcoming.map((key) => (
            <li key={key}>{t(key)}</li>
          ))}
        </ul>
        {info.links ? <div className="mt-5 flex flex-wrap gap-3">{info.links}</div> : null}
      </Card>
    </div>
  );
}
