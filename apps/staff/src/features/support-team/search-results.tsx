import { Avatar, Badge, cx } from '@tickety/ui';
import { useT } from '../../lib/i18n';
import type { StaffSearchServer, StaffSearchUser } from './api';

/** One result of the list: a user or a server. */
export type SearchOption = { kind: 'user'; item: StaffSearchUser } | { kind: 'server'; item: StaffSearchServer };

/** The DOM id of a result (the search box's `aria-activedescendant`). */
export const optionId = (listId: string, option: SearchOption) => `${listId}-${option.kind}-${option.item.id}`;

/**
 * The results as a listbox grouped Users / Servers (avatars and icons), the active one (arrow keys)
 * highlighted and scrolled into view; a click or Enter opens its card.
 */
export function SearchResults({
  listId,
  users,
  servers,
  active,
  selected,
  onPick,
  onHover,
}: {
  listId: string;
  users: StaffSearchUser[];
  servers: StaffSearchServer[];
  /** Index into users then servers, or -1. */
  active: number;
  /** `user:<id>` or `server:<id>` of the open card. */
  selected: string | null;
  onPick: (option: SearchOption) => void;
  onHover: (index: number) => void;
}) {
  const t = useT();
  const groups: Array<{ key: 'users' | 'servers'; label: string; options: SearchOption[]; offset: number }> = [
    { key: 'users', label: t('search.group.users'), options: users.map((item) => ({ kind: 'user' as const, item })), offset: 0 },
    { key: 'servers', label: t('search.group.servers'), options: servers.map((item) => ({ kind: 'server' as const, item })), offset: users.length },
  ];
  return (
    <div id={listId} role="listbox" aria-label={t('search.results')} className="space-y-4">
      {groups.map((group) =>
        group.options.length === 0 ? null : (
          // biome-ignore lint/a11y/useSemanticElements: a group of options inside a listbox (ARIA combobox pattern), not a form's fieldset
          <div key={group.key} role="group" aria-labelledby={`${listId}-${group.key}`}>
            <p id={`${listId}-${group.key}`} className="mb-1 px-2 text-xs font-semibold tracking-wide text-surface-500 uppercase dark:text-surface-400">
              {group.label} <span className="font-normal normal-case">({group.options.length})</span>
            </p>
            <div className="space-y-0.5">
              {group.options.map((option, i) => {
                const index = group.offset + i;
                const isActive = index === active;
                const isSelected = selected === `${option.kind}:${option.item.id}`;
                const name = option.kind === 'user' ? (option.item.globalName ?? option.item.username) : option.item.name;
                return (
                  // biome-ignore lint/a11y/useKeyWithClickEvents: the search box handles the keys (arrows, Enter) for its listbox
                  <div
                    key={option.item.id}
                    id={optionId(listId, option)}
                    role="option"
                    aria-selected={isSelected}
                    tabIndex={-1}
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => onPick(option)}
                    onMouseMove={() => onHover(index)}
                    className={cx(
                      'flex min-h-11 cursor-pointer items-center gap-3 rounded-lg px-2 py-1.5 text-sm',
                      isActive ? 'bg-primary-50 ring-1 ring-primary-300 dark:bg-primary-950 dark:ring-primary-700' : 'hover:bg-surface-100 dark:hover:bg-surface-800',
                      isSelected && 'font-semibold',
                    )}
                  >
                    {option.kind === 'user' ? (
                      <Avatar src={option.item.avatarUrl} name={name} size="sm" />
                    ) : (
                      <Avatar src={option.item.iconUrl} name={name} size="sm" shape="square" />
                    )}
                    <span className="min-w-0 flex-1">
                      <span className="block truncate text-surface-900 dark:text-surface-50">{name}</span>
                      <span className="block truncate text-xs font-normal text-surface-500 dark:text-surface-400">
                        {option.kind === 'user' ? `@${option.item.username} · ${option.item.id}` : option.item.id}
                      </span>
                    </span>
                    {option.kind === 'server' && !option.item.botInGuild ? <Badge>{t('search.server.noBot')}</Badge> : null}
                  </div>
                );
              })}
            </div>
          </div>
        ),
      )}
    </div>
  );
}
