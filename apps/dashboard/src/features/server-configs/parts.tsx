import { formatDateTime, formatRelative } from '@tickety/shared';
import { Avatar } from '@tickety/ui';
import type { VersionActor } from './api';

/** When: how long ago, with the date and time in the viewer's time zone and locale (also on hover). */
export function When({ at, now, inline = false }: { at: string; now: number; inline?: boolean }) {
  const absolute = formatDateTime(at);
  if (inline) {
    return (
      <time dateTime={at} title={formatDateTime(at, { seconds: true })}>
        {absolute}
      </time>
    );
  }
  return (
    <time dateTime={at} title={formatDateTime(at, { seconds: true })} className="inline-flex flex-wrap gap-x-1.5">
      <span>{formatRelative(at, now, { precision: 'minutes' })}</span>
      <span className="text-surface-500 dark:text-surface-400">· {absolute}</span>
    </time>
  );
}

export function Actor({ actor, size = 'xs' }: { actor: VersionActor; size?: 'xs' | 'sm' }) {
  return (
    <span className="inline-flex min-w-0 items-center gap-1.5" title={`${actor.name} · ${actor.id}`}>
      <Avatar src={actor.avatarUrl} name={actor.name} size={size} />
      <span className="min-w-0 break-words font-medium [overflow-wrap:anywhere]">{actor.name}</span>
    </span>
  );
}
