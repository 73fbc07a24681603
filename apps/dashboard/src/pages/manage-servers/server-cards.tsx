import { Link } from '@tickety/shared';
import ChevronRight from 'lucide-react/icons/chevron-right';
import ExternalLink from 'lucide-react/icons/external-link';
import Plus from 'lucide-react/icons/plus';
import type { Guild } from '@tickety/shared';
import { Avatar, Badge, buttonClasses, type Tone } from '@tickety/ui';
import { type GuildRole, guildRole } from '../../lib/guilds';

const ROLE_TONE: Record<GuildRole, Tone> = {
  Owner: 'primary',
  Administrator: 'info',
  'Manage Server': 'neutral',
  'Dashboard access': 'neutral',
};

function RoleBadge({ guild }: { guild: Guild }) {
  const role = guildRole(guild);
  if (!role) return null;
  return (
    <Badge tone={ROLE_TONE[role]}>
      <span className="sr-only">Your role: </span>
      {role}
    </Badge>
  );
}

const CARD =
  'flex h-full items-center gap-3 rounded-xl border border-surface-200 bg-white p-4 shadow-sm dark:border-surface-800 dark:bg-surface-900';

/** A server with the bot: the whole card opens its dashboard. */
export function ManagedServerCard({ guild, href, premium }: { guild: Guild; href: string; premium: boolean }) {
  return (
    <li>
      <Link
        to={href}
        className={`${CARD} group transition hover:border-primary-400 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-500 dark:hover:border-primary-600`}
      >
        <Avatar src={guild.iconUrl} name={guild.name} shape="square" size="lg" />
        <span className="min-w-0 flex-1">
          <span className="block truncate font-semibold text-surface-900 dark:text-surface-50" title={guild.name}>
            {guild.name}
          </span>
          <span className="mt-1.5 flex flex-wrap gap-1.5">
            <RoleBadge guild={guild} />
            {premium ? <Badge tone="warning">Premium</Badge> : null}
          </span>
        </span>
        <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-surface-400 transition group-hover:translate-x-0.5 group-hover:text-primary-600" />
      </Link>
    </li>
  );
}

/** A server without the bot: an Invite link that opens Discord's authorise page with the server preselected. */
export function InviteServerCard({ guild, inviteHref, productName, onInvite }: { guild: Guild; inviteHref: string; productName: string; onInvite: (guild: Guild) => void }) {
  return (
    <li className={`${CARD} flex-wrap`}>
      <Avatar src={guild.iconUrl} name={guild.name} shape="square" size="lg" className="opacity-80" />
      <span className="min-w-0 flex-1">
        <span className="block truncate font-semibold text-surface-900 dark:text-surface-50" title={guild.name}>
          {guild.name}
        </span>
        <span className="mt-1.5 flex flex-wrap gap-1.5">
          <RoleBadge guild={guild} />
        </span>
      </span>
      <a href={inviteHref} target="_blank" rel="noopener noreferrer" className={buttonClasses({ size: 'sm' })} onClick={() => onInvite(guild)}>
        <Plus aria-hidden="true" className="size-4" />
        Invite
        <span className="sr-only">
          {' '}
          {productName} to {guild.name} (opens in a new tab)
        </span>
        <ExternalLink aria-hidden="true" className="size-3.5 opacity-80" />
      </a>
    </li>
  );
}
