import Bot from 'lucide-react/icons/bot';
import CircleHelp from 'lucide-react/icons/circle-help';
import Info from 'lucide-react/icons/info';
import LifeBuoy from 'lucide-react/icons/life-buoy';
import Search from 'lucide-react/icons/search';
import ServerOff from 'lucide-react/icons/server-off';
import { botInviteUrl, type Guild, selectGuilds, selectManageableGuilds, selectSub, useAppSelector, useLocation, useRuntimeConfig, useSearchParams } from '@tickety/shared';
import { Alert, Button, buttonClasses, Card, cx, EmptyState, inputClasses, PageHeader } from '@tickety/ui';
import { type ReactNode, useId, useMemo, useRef, useState } from 'react';
import { byName, isServerPageSlug, matchesQuery, SERVER_PAGES, serverHref, serverPagePath } from '../../lib/guilds';
import { RefreshControl } from './refresh-control';
import { InviteServerCard, ManagedServerCard } from './server-cards';

const GRID = 'grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3';

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** An external link (new tab), said so to screen readers. */
function ExternalAnchor({ href, className, children }: { href: string; className?: string; children: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}

function ServerSection({ title, count, hint, children }: { title: string; count: number; hint: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="mt-8">
      <h2 id={id} className="flex items-baseline gap-2 text-lg font-semibold text-surface-900 dark:text-surface-50">
        {title}
        <span className="text-sm font-normal text-surface-500 dark:text-surface-400">({count})</span>
      </h2>
      <p className="mt-1 mb-3 text-sm text-surface-600 dark:text-surface-400">{hint}</p>
      {children}
    </section>
  );
}

function SectionNote({ children }: { children: ReactNode }) {
  return <p className="rounded-lg border border-dashed border-surface-300 px-4 py-6 text-center text-sm text-surface-600 dark:border-surface-700 dark:text-surface-400">{children}</p>;
}

/** Why a server may be missing: the first question of every ticket bot's support server. */
function MissingServerHelp({ supportUrl, otherCount }: { supportUrl: string; otherCount: number }) {
  return (
    <Card className="mt-10 p-5">
      <h2 className="flex items-center gap-2 font-semibold text-surface-900 dark:text-surface-50">
        <CircleHelp aria-hidden="true" className="size-5 text-primary-600 dark:text-primary-400" />
        Don't see your server?
      </h2>
      <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-surface-700 dark:text-surface-300">
        <li>
          Only servers you can manage are listed: you must be the <strong>owner</strong>, or have a role with the <strong>Administrator</strong> or{' '}
          <strong>Manage Server</strong> permission.
          {otherCount > 0 ? ` You are in ${plural(otherCount, 'other server')} where you are a member only.` : null}
        </li>
        <li>The list is what Discord told us at the last update: joined a server or got a new role since? Press Refresh.</li>
        <li>It shows the servers of the Discord account you signed in with; check it is the right account.</li>
        <li>
          Still missing?{' '}
          <ExternalAnchor href={supportUrl} className="font-medium text-primary-700 underline underline-offset-2 hover:text-primary-600 dark:text-primary-400">
            Ask us in the support server
          </ExternalAnchor>
          .
        </li>
      </ul>
    </Card>
  );
}

/** The user manages no server: say why and how to get one, never a sign-in prompt (they are signed in). */
function NoServers({ memberOf, inviteUrl, supportUrl }: { memberOf: number; inviteUrl: string; supportUrl: string }) {
  return (
    <>
      <EmptyState
        icon={<ServerOff aria-hidden="true" className="size-6" />}
        title="You don't manage any servers yet"
        description={
          memberOf > 1
            ? `You are in ${memberOf} servers, but in none of them are you the owner or do you have the Administrator or Manage Server permission, so there are no servers you can set up here.`
            : memberOf === 1
              ? 'You are in 1 server, but you are not its owner and do not have the Administrator or Manage Server permission there, so there are no servers you can set up here.'
            : 'Discord lists no servers for your account where you are the owner or have the Administrator or Manage Server permission, so there are no servers you can set up here.'
        }
      >
        <ExternalAnchor href={inviteUrl} className={buttonClasses()}>
          <Bot aria-hidden="true" className="size-4" />
          Invite the bot
        </ExternalAnchor>
        <ExternalAnchor href={supportUrl} className={buttonClasses({ variant: 'secondary' })}>
          <LifeBuoy aria-hidden="true" className="size-4" />
          Support server
        </ExternalAnchor>
      </EmptyState>
      <Card className="mt-6 p-5">
        <h2 className="font-semibold text-surface-900 dark:text-surface-50">How to get a server here</h2>
        <ol className="mt-3 list-decimal space-y-1.5 pl-5 text-sm text-surface-700 dark:text-surface-300">
          <li>
            <strong>Help run someone else's server?</strong> Ask one of its admins for a role with the <strong>Manage Server</strong> (or Administrator)
            permission.
          </li>
          <li>
            <strong>Starting out?</strong> Create your own server in Discord (you are its owner), then invite the bot to it.
          </li>
          <li>
            <strong>Just got the permission or created the server?</strong> Refresh your server list:
          </li>
        </ol>
        <RefreshControl align="start" className="mt-3" />
      </Card>
    </>
  );
}

/**
 * Manage Servers (/dashboard): the servers the user can manage, split into those with the bot (open
 * their dashboard) and those without (invite it), searchable, with a rate-limited refresh. The shell's
 * redirect of the bot's placeholder links adds `?page=<page>` (and keeps the hash): the server links
 * then lead straight to that page.
 */
export default function ManageServers() {
  const config = useRuntimeConfig();
  const guilds = useAppSelector(selectGuilds);
  const manageable = useAppSelector(selectManageableGuilds);
  const sub = useAppSelector(selectSub);
  const [searchParams] = useSearchParams();
  const { hash } = useLocation();
  const [query, setQuery] = useState('');
  const [invitedId, setInvitedId] = useState<string | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const searchId = useId();

  const page = searchParams.get('page');
  const pageSlug = serverPagePath(page)?.split('/')[0];
  const premiumIds = useMemo(() => new Set(sub?.servers ?? []), [sub]);
  const sorted = useMemo(() => [...manageable].sort(byName), [manageable]);
  const matching = useMemo(() => sorted.filter((g) => matchesQuery(g, query)), [sorted, query]);
  const added = matching.filter((g) => g.botInGuild);
  const notAdded = matching.filter((g) => !g.botInGuild);
  const totalAdded = sorted.filter((g) => g.botInGuild).length;
  const totalNotAdded = sorted.length - totalAdded;
  const searching = query.trim() !== '';
  const invited = invitedId ? sorted.find((g) => g.id === invitedId && !g.botInGuild) : undefined;

  const clearSearch = () => {
    setQuery('');
    searchRef.current?.focus();
  };

  return (
    <div>
      <PageHeader
        title="Manage Servers"
        description={`Choose a server to set up ${config.productName}: ticket panels, statistics, premium and more.`}
      />

      {isServerPageSlug(pageSlug) && sorted.length > 0 ? (
        <Alert tone="info" icon={<Info aria-hidden="true" className="size-4" />} className="mb-6">
          Choose the server whose <strong>{SERVER_PAGES[pageSlug]}</strong> you want to open.
        </Alert>
      ) : null}

      {sorted.length === 0 ? (
        <NoServers memberOf={guilds.length} inviteUrl={botInviteUrl(config)} supportUrl={config.supportUrl} />
      ) : (
        <>
          {invited ? (
            <Alert tone="primary" title={`Adding ${config.productName} to ${invited.name}?`} className="mb-6">
              Finish in the Discord tab that opened, then come back and press Refresh: the server moves to “Bot added”.
            </Alert>
          ) : null}

          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-start sm:justify-between">
            <search className="relative block w-full max-w-md">
              <label htmlFor={searchId} className="sr-only">
                Search servers
              </label>
              <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-surface-400" />
              <input
                ref={searchRef}
                id={searchId}
                type="search"
                placeholder="Search by server name or ID"
                autoComplete="off"
                spellCheck={false}
                className={cx(inputClasses, 'pl-9')}
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Escape' && query) {
                    e.preventDefault();
                    setQuery('');
                  }
                }}
              />
            </search>
            <RefreshControl />
          </div>
          <p role="status" className="sr-only">
            {searching ? `${plural(matching.length, 'server')} of ${sorted.length} match “${query.trim()}”.` : ''}
          </p>

          {searching && matching.length === 0 ? (
            <EmptyState
              className="mt-8"
              icon={<Search aria-hidden="true" className="size-6" />}
              title={`No servers match “${query.trim()}”`}
              description="Search by a part of the server's name or by its ID. Only servers you can manage are listed."
            >
              <Button variant="secondary" onClick={clearSearch}>
                Clear search
              </Button>
            </EmptyState>
          ) : (
            <>
              <ServerSection title="Bot added" count={added.length} hint={`${config.productName} is in these servers: open one to manage it.`}>
                {added.length > 0 ? (
                  <ul className={GRID}>
                    {added.map((g) => (
                      <ManagedServerCard key={g.id} guild={g} href={serverHref(g.id, page, hash)} premium={premiumIds.has(g.id)} />
                    ))}
                  </ul>
                ) : (
                  <SectionNote>
                    {searching && totalAdded > 0
                      ? `No servers with ${config.productName} match “${query.trim()}”.`
                      : `${config.productName} isn't in any of your servers yet: invite it to one below to get started.`}
                  </SectionNote>
                )}
              </ServerSection>

              <ServerSection
                title="Not added yet"
                count={notAdded.length}
                hint="Invite opens Discord in a new tab with the server already chosen. After adding the bot, come back here and press Refresh."
              >
                {notAdded.length > 0 ? (
                  <ul className={GRID}>
                    {notAdded.map((g) => (
                      <InviteServerCard
                        key={g.id}
                        guild={g}
                        inviteHref={botInviteUrl(config, g.id)}
                        productName={config.productName}
                        onInvite={(guild: Guild) => setInvitedId(guild.id)}
                      />
                    ))}
                  </ul>
                ) : (
                  <SectionNote>
                    {searching && totalNotAdded > 0
                      ? `No servers without ${config.productName} match “${query.trim()}”.`
                      : `${config.productName} is in every server you manage.`}
                  </SectionNote>
                )}
              </ServerSection>
            </>
          )}

          <MissingServerHelp supportUrl={config.supportUrl} otherCount={guilds.length - sorted.length} />
        </>
      )}
    </div>
  );
}
