import Construction from 'lucide-react/icons/construction';
import type { LucideIcon } from 'lucide-react';
import { selectGuilds, useAppSelector, useParams } from '@tickety/shared';
import { Alert, Card, PageHeader } from '@tickety/ui';
import type { ReactNode } from 'react';

export interface ServerPageInfo {
  /** The page's name (the sidebar's label). */
  name: string;
  icon: LucideIcon;
  /** One line: what the page does for this server. */
  description: (serverName: string) => string;
  /** What is missing in this version, shown as "<feature>: not available yet". */
  feature: string;
  /** What the page will hold. */
  upcoming: string[];
  /** Real links that already work (e.g. to the premium plans). */
  links?: ReactNode;
}

/** The server's name from the signed-in user's guilds (the shell's server layout already checked access). */
export function useServerName(): string {
  const { server } = useParams();
  const guild = useAppSelector(selectGuilds).find((g) => g.id === server);
  return guild?.name ?? 'this server';
}

/**
 * The frame of a server dashboard page whose content comes in a later version: its header, an honest
 * notice, and what the page will hold. No sample data and no buttons that do nothing.
 */
export function ServerPageFrame({ info }: { info: ServerPageInfo }) {
  const serverName = useServerName();
  const Icon = info.icon;
  return (
    <div>
      <PageHeader
        title={
          <span className="flex items-center gap-3">
            <Icon aria-hidden="true" className="size-7 shrink-0 text-primary-600 dark:text-primary-400" />
            {info.name}
          </span>
        }
        description={info.description(serverName)}
      />
      <Alert tone="info" icon={<Construction aria-hidden="true" className="size-4" />} title={`${info.feature}: not available yet`}>
        This version of the dashboard does not include it; it arrives in a later version. Nothing about {serverName} has been changed here.
      </Alert>
      <Card className="mt-6 p-5">
        <h2 className="font-semibold text-surface-900 dark:text-surface-50">What this page will hold</h2>
        <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-surface-700 dark:text-surface-300">
          {info.upcoming.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        {info.links ? <div className="mt-5 flex flex-wrap gap-3">{info.links}</div> : null}
      </Card>
    </div>
  );
}
