import { botInviteUrl, formatNumber, type Guild, Link, selectDashboardGuilds, selectGuilds, selectSub, useAppSelector, useLocation, useRuntimeConfig, useSearchParams } from '@tickety/shared';
import { Alert, Button, buttonClasses, Card, cx, EmptyState, inputClasses, PageHeader } from '@tickety/ui';
import Bot from 'lucide-react/icons/bot';
import CircleHelp from 'lucide-react/icons/circle-help';
import Inbox from 'lucide-react/icons/inbox';
import Info from 'lucide-react/icons/info';
import LifeBuoy from 'lucide-react/icons/life-buoy';
import Search from 'lucide-react/icons/search';
import ServerOff from 'lucide-react/icons/server-off';
import { type ReactNode, useId, useMemo, useRef, useState } from 'react';
import { href } from '../../lib/hrefs';
import { Message, useT } from './i18n';
import { byName, isServerPageSlug, matchesQuery, SERVER_PAGES, serverHref, serverPagePath } from './guilds';
import { RefreshControl } from './refresh-control';
import { InviteServerCard, ManagedServerCard } from './server-cards';

const GRID = 'grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-3';

/** An external link (new tab), said so to screen readers. */
function ExternalAnchor({ href, className, children }: { href: string; className?: string; children?: ReactNode }) {
  const t = useT();
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <span className="sr-only"> {t('common.opensInNewTab')}</span>
    </a>
  );
}

const strong = <strong />;

function ServerSection({ title, count, hint, children }: { title: string; count: number; hint: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="mt-8">
      <h2 id={id} className="flex flex-wrap items-baseline gap-x-2 text-lg font-semibold text-surface-900 dark:text-surface-50">
        {title}
        <span className="text-sm font-normal text-surface-500 dark:text-surface-400">({formatNumber(count)})</span>
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
  const t = useT();
  return (
    <Card className="mt-10 p-5">
      <h2 className="flex items-center gap-2 font-semibold text-surface-900 dark:text-surface-50">
        <CircleHelp aria-hidden="true" className="size-5 text-primary-600 dark:text-primary-400" />
        {t('servers.help.title')}
      </h2>
      <ul className="mt-3 list-disc space-y-1.5 pl-5 text-sm text-surface-700 dark:text-surface-300">
        <li>
          <Message k="servers.help.manageable" components={{ strong }} />
          {otherCount > 0 ? ` ${t('servers.help.memberOnly', { count: otherCount })}` : null}
        </li>
        <li>{t('servers.help.refresh')}</li>
        <li>{t('servers.help.account')}</li>
        <li>
          <Message
            k="servers.help.support"
            components={{
              link: <ExternalAnchor href={supportUrl} className="font-medium text-primary-700 underline underline-offset-2 hover:text-primary-600 dark:text-primary-400" />,
            }}
          />
        </li>
      </ul>
    </Card>
  );
}

/** The user manages no server: say why and how to get one, never a sign-in prompt (they are signed in). */
function NoServers({ memberOf, inviteUrl, supportUrl }: { memberOf: number; inviteUrl: string; supportUrl: string }) {
  const t = useT();
  return (
    <>
      <EmptyState
        icon={<ServerOff aria-hidden="true" className="size-6" />}
        title={t('servers.none.title')}
        description={t('servers.none.description', { count: memberOf })}
      >
        <ExternalAnchor href={inviteUrl} className={buttonClasses()}>
          <Bot aria-hidden="true" className="size-4" />
          {t('servers.none.invite')}
        </ExternalAnchor>
        <ExternalAnchor href={supportUrl} className={buttonClasses({ variant: 'secondary' })}>
          <LifeBuoy aria-hidden="true" className="size-4" />
          {t('servers.none.support')}
        </ExternalAnchor>
      </EmptyState>
      <Card className="mt-6 p-5">
        <h2 className="font-semibold text-surface-900 dark:text-surface-50">{t('servers.none.howTo.title')}</h2>
        <ol className="mt-3 list-decimal space-y-1.5 pl-5 text-sm text-surface-700 dark:text-surface-300">
          <li>
            <Message k="servers.none.howTo.help" components={{ strong }} />
          </li>
          <li>
            <Message k="servers.none.howTo.create" components={{ strong }} />
          </li>
          <li>
            <Message k="servers.none.howTo.refresh" components={{ strong }} />
          </li>
        </ol>
        <RefreshControl align="start" className="mt-3" />
      </Card>
    </>
  );
}

/**
 * Manage Servers (/dashboard): the servers the user can open (they manage it, or one of their roles has
 * dashboard access there: 'Dashboard access'), split into those with the bot (open their dashboard) and
 * those without (invite it), searchable, with a rate-limited refresh. The shell's
 * redirect of the bot's placeholder links adds `?page=<page>` (and keeps the hash): the server links
 * then lead straight to that page.
 */
export default function ManageServers() {
  const t = useT();
  const config = useRuntimeConfig();
  const guilds = useAppSelector(selectGuilds);
  // The servers the user manages, and those a role the server gives dashboard access opens.
  const manageable = useAppSelector(selectDashboardGuilds);
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
        title={t('title.manageServers')}
        description={t('servers.description', { product: config.productName })}
        actions={
          <Link to={href('/transcripts')} className={buttonClasses({ variant: 'secondary' })}>
            <Inbox aria-hidden="true" className="size-4" />
            {t('servers.yourTickets')}
          </Link>
        }
      />

      {isServerPageSlug(pageSlug) && sorted.length > 0 ? (
        <Alert tone="info" icon={<Info aria-hidden="true" className="size-4" />} className="mb-6">
          <Message k="servers.pageHint" values={{ page: t(`sidebar.${SERVER_PAGES[pageSlug].page}`) }} components={{ strong }} />
        </Alert>
      ) : null}

      {sorted.length === 0 ? (
        <NoServers memberOf={guilds.length} inviteUrl={botInviteUrl(config)} supportUrl={config.supportUrl} />
      ) : (
        <>
          {invited ? (
            <Alert tone="primary" title={t('servers.invited.title', { product: config.productName, server: invited.name })} className="mb-6">
              {t('servers.invited.body')}
            </Alert>
          ) : null}

          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-start sm:justify-between">
            <search className="relative block w-full max-w-md">
              <label htmlFor={searchId} className="sr-only">
                {t('servers.search.label')}
              </label>
              <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-surface-400" />
              <input
                ref={searchRef}
                id={searchId}
                type="search"
                placeholder={t('servers.search.placeholder')}
                autoComplete="off"
                spellCheck={false}
                className={cx(inputClasses, 'pl-9')}
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Escape' && query) {
                    event.preventDefault();
                    setQuery('');
                  }
                }}
              />
            </search>
            <RefreshControl />
          </div>
          <p role="status" className="sr-only">
            {searching ? t('servers.search.status', { count: matching.length, total: sorted.length, query: query.trim() }) : ''}
          </p>

          {searching && matching.length === 0 ? (
            <EmptyState
              className="mt-8"
              icon={<Search aria-hidden="true" className="size-6" />}
              title={t('servers.search.noMatch.title', { query: query.trim() })}
              description={t('servers.search.noMatch.description')}
            >
              <Button variant="secondary" onClick={clearSearch}>
                {t('servers.search.clear')}
              </Button>
            </EmptyState>
          ) : (
            <>
              <ServerSection title={t('servers.added.title')} count={added.length} hint={t('servers.added.hint', { product: config.productName })}>
                {added.length > 0 ? (
                  <ul className={GRID}>
                    {added.map((g) => (
                      <ManagedServerCard key={g.id} guild={g} href={serverHref(g.id, page, hash)} premium={premiumIds.has(g.id)} />
                    ))}
                  </ul>
                ) : (
                  <SectionNote>
                    {searching && totalAdded > 0
                      ? t('servers.added.noMatch', { product: config.productName, query: query.trim() })
                      : t('servers.added.none', { product: config.productName })}
                  </SectionNote>
                )}
              </ServerSection>

              <ServerSection
                title={t('servers.notAdded.title')}
                count={notAdded.length}
                hint={t('servers.notAdded.hint')}
              >
                {notAdded.length > 0 ? (
                  <ul className={GRID}>
                    {notAdded.map((notAddedGuild) => (
                      <InviteServerCard
                        key={notAddedGuild.id}
                        guild={notAddedGuild}
                        inviteHref={botInviteUrl(config, notAddedGuild.id)}
                        productName={config.productName}
                        onInvite={(guild: Guild) => setInvitedId(guild.id)}
                      />
                    ))}
                  </ul>
                ) : (
                  <SectionNote>
                    {searching && totalNotAdded > 0
                      ? t('servers.notAdded.noMatch', { product: config.productName, query: query.trim() })
                      : t('servers.notAdded.none', { product: config.productName })}
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
