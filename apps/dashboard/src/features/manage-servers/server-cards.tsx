import type { Guild } from '@tickety/shared';
import { Link } from '@tickety/shared';
import { Avatar, Badge, buttonClasses, type Tone } from '@tickety/ui';
import ChevronRight from 'lucide-react/icons/chevron-right';
import ExternalLink from 'lucide-react/icons/external-link';
import Plus from 'lucide-react/icons/plus';
import { type MessageKey, useT } from './i18n';
import { type GuildRole, guildRole } from './guilds';

const ROLE: Record<GuildRole, { tone: Tone; label: MessageKey }> = {
  Owner: { tone: 'primary', label: 'cards.role.owner' },
  Administrator: { tone: 'info', label: 'cards.role.administrator' },
  'Manage Server': { tone: 'neutral', label: 'cards.role.manageServer' },
  'Dashboard access': { tone: 'neutral', label: 'cards.role.dashboardAccess' },
};

function RoleBadge({ guild }: { guild: Guild }) {
  const t = useT();
  const role = guildRole(guild);
  if (!role) return null;
  return (
    <Badge tone={ROLE[role].tone}>
      <span className="sr-only">{t('cards.yourRole')} </span>
      {t(ROLE[role].label)}
    </Badge>
  );
}

const CARD =
  'flex h-full items-center gap-3 rounded-xl border border-surface-200 bg-white p-4 shadow-sm dark:border-surface-800 dark:bg-surface-900';

/** A server with the bot: the whole card opens its dashboard. */
export function ManagedServerCard({ guild, href, premium }: { guild: Guild; href: string; premium: boolean }) {
  const t = useT();
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
            {premium ? <Badge tone="warning">{t('cards.premium')}</Badge> : null}
          </span>
        </span>
        <ChevronRight aria-hidden="true" className="size-5 shrink-0 text-surface-400 transition group-hover:translate-x-0.5 group-hover:text-primary-600" />
      </Link>
    </li>
  );
}

/** A server without the bot: an Invite link that opens Discord's authorise page with the server preselected. */
export function InviteServerCard({ guild, inviteHref, productName, onInvite }: { guild: Guild; inviteHref: string; productName: string; onInvite: (guild: Guild) => void }) {
  const t = useT();
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
      {/* The visible word alone says too little to a screen reader; the label names the bot, the server and the new tab. */}
      <a
        href={inviteHref}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={t('cards.inviteLabel', { product: productName, server: guild.name })}
        className={buttonClasses({ size: 'sm' })}
        onClick={() => onInvite(guild)}
      >
        <Plus aria-hidden="true" className="size-4" />
        {t('cards.invite')}
        <ExternalLink aria-hidden="true" className="size-3.5 opacity-80" />
      </a>
    </li>
  );
}
