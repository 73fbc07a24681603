import Check from 'lucide-react/icons/check';
import ShieldCheck from 'lucide-react/icons/shield-check';
import TriangleAlert from 'lucide-react/icons/triangle-alert';
import { botInviteUrl, isSnowflake, Link, selectGuilds, useAppSelector, useRuntimeConfig, useSearchParams } from '@tickety/shared';
import { Alert, Avatar, buttonClasses, Card, PageHeader } from '@tickety/ui';
import { DiscordMark } from '../components/discord-mark';
import { Container } from '../components/layout';
import { requestedPermissions, requestedScopes } from '../lib/permissions';

const SCOPES: Record<string, (product: string) => string> = {
  bot: (p) => `Adds ${p}'s bot user to the server, with the permissions below.`,
  'applications.commands': () => 'Lets your members and staff use its slash commands.',
};

/** Which server the link preselects: its name and icon when the signed-in user is a member. */
function PreselectedServer({ guildId }: { guildId: string }) {
  const guild = useAppSelector(selectGuilds).find((g) => g.id === guildId);
  if (!guild) {
    return (
      <Alert tone="info" className="mb-6">
        This link is for the server with ID <code className="font-mono">{guildId}</code>. Discord will preselect it.
      </Alert>
    );
  }
  return (
    <div className="mb-6">
      <div className="flex items-center gap-3 rounded-xl border border-surface-200 bg-white p-4 dark:border-surface-800 dark:bg-surface-900">
        <Avatar src={guild.iconUrl} name={guild.name} shape="square" />
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-surface-500 uppercase dark:text-surface-400">Adding to</p>
          <p className="truncate font-semibold text-surface-900 dark:text-surface-50">{guild.name}</p>
        </div>
        {guild.botInGuild ? <span className="ml-auto text-sm font-medium text-primary-700 dark:text-primary-400">Already added</span> : null}
      </div>
      {guild.canManage ? null : (
        <Alert tone="warning" icon={<TriangleAlert aria-hidden="true" className="size-5" />} className="mt-3">
          Adding a bot needs the Manage Server permission on this server. Ask its owner or an admin to add it for you.
        </Alert>
      )}
    </div>
  );
}

export default function InvitePage() {
  const config = useRuntimeConfig();
  const [params] = useSearchParams();
  const raw = params.get('guild_id');
  const guildId = isSnowflake(raw) ? raw : undefined;
  const url = botInviteUrl(config, guildId);
  const permissions = requestedPermissions(url);
  const scopes = requestedScopes(url);
  const admin = permissions.some((p) => p.bit === 3);

  return (
    <Container className="py-12 sm:py-16">
      <div className="grid gap-12 lg:grid-cols-[1fr_1.2fr]">
        <div>
          <PageHeader
            title={`Add ${config.productName} to your server`}
            description="Discord asks you to pick a server and approve the bot's permissions. Here is what each one is for."
          />
          {raw !== null && !guildId ? (
            <Alert tone="warning" className="mb-6">
              The server ID in this link is not valid, so you will choose the server on Discord.
            </Alert>
          ) : null}
          {guildId ? <PreselectedServer guildId={guildId} /> : null}
          <a href={url} className={buttonClasses({ variant: 'discord', size: 'lg', className: 'w-full sm:w-auto' })}>
            <DiscordMark className="size-5" />
            Add to Discord
          </a>
          <ol className="mt-10 space-y-5">
            {[
              ['Choose a server', 'Discord lists the servers where you have the Manage Server permission.'],
              ['Review and authorise', 'Keep the permissions ticked so every feature works, then press Authorise.'],
              ['Set up your first panel', 'Open the dashboard, pick your server and build a panel with the live preview.'],
            ].map(([title, text], i) => (
              <li key={title} className="flex gap-4">
                <span aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary-600 text-sm font-bold text-white">
                  {i + 1}
                </span>
                <div>
                  <p className="font-semibold text-surface-900 dark:text-surface-50">{title}</p>
                  <p className="mt-0.5 text-sm text-surface-600 dark:text-surface-400">{text}</p>
                </div>
              </li>
            ))}
          </ol>
          <p className="mt-8 text-sm text-surface-600 dark:text-surface-400">
            Already added?{' '}
            <Link to="/dashboard" className="font-medium text-primary-700 underline underline-offset-2 dark:text-primary-400">
              Open the dashboard
            </Link>
          </p>
        </div>

        <Card className="p-6 sm:p-8">
          <h2 className="flex items-center gap-2 text-lg font-semibold text-surface-900 dark:text-surface-50">
            <ShieldCheck aria-hidden="true" className="size-5 text-primary-600 dark:text-primary-400" />
            Permissions and why
          </h2>
          {admin ? (
            <Alert tone="warning" className="mt-4">
              This invite asks for Administrator. {config.productName} only uses what tickets need; you may untick Administrator on Discord and give the bot&apos;s
              role the permissions for channels, roles and messages instead.
            </Alert>
          ) : null}
          {permissions.length > 0 ? (
            <ul className="mt-5 divide-y divide-surface-200 dark:divide-surface-800">
              {permissions.map((p) => (
                <li key={p.bit} className="flex gap-3 py-3">
                  <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary-600 dark:text-primary-400" />
                  <div>
                    <p className="text-sm font-semibold text-surface-900 dark:text-surface-50">{p.name}</p>
                    <p className="mt-0.5 text-sm text-surface-600 dark:text-surface-400">{p.why}</p>
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-4 text-sm text-surface-600 dark:text-surface-400">
              This invite asks for no permissions up front; give the bot&apos;s role the permissions to manage channels, roles and messages after adding it.
            </p>
          )}
          {scopes.length > 0 ? (
            <>
              <h3 className="mt-6 text-sm font-semibold text-surface-900 dark:text-surface-50">Access it asks for</h3>
              <ul className="mt-2 space-y-1.5 text-sm text-surface-600 dark:text-surface-400">
                {scopes.map((s) => (
                  <li key={s}>
                    <code className="rounded bg-surface-100 px-1.5 py-0.5 font-mono text-xs text-surface-800 dark:bg-surface-800 dark:text-surface-200">{s}</code>{' '}
                    {SCOPES[s]?.(config.productName) ?? 'Requested by the bot.'}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <p className="mt-6 border-t border-surface-200 pt-4 text-sm text-surface-600 dark:border-surface-800 dark:text-surface-400">
            Ticket channels are visible only to the member who opened them, your support roles and the bot. You can change the bot&apos;s permissions at any time
            in Server Settings, Roles; removing one turns off the feature that needs it.
          </p>
        </Card>
      </div>
    </Container>
  );
}
