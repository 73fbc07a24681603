/**
 * Pickers over the server's real channels, roles and emojis (`GET /api/guilds/:server/resources`):
 * searchable comboboxes (ARIA 1.2: the input owns a listbox, arrows move, Enter picks, Escape closes).
 * When the server's resources cannot be loaded they say so and offer a retry; they never show a list
 * that is not the server's. A value already set stays shown (by id) and can be cleared.
 */

import type { ComponentEmoji, ServerChannel, ServerResources, ServerRole } from '@tickety/api-contract';
import { useRuntimeConfig } from '@tickety/shared';
import { Button, cx, inputClasses, Spinner } from '@tickety/ui';
import Folder from 'lucide-react/icons/folder';
import Hash from 'lucide-react/icons/hash';
import Megaphone from 'lucide-react/icons/megaphone';
import AlertTriangle from 'lucide-react/icons/triangle-alert';
import CloseIcon from 'lucide-react/icons/x';
import { createContext, type ReactNode, useContext, useId, useMemo, useState } from 'react';
import { failureText, isMissingRoute } from '../../lib/failures';
import { useT } from './i18n';
import { emojiUrl } from './discord-cdn';
import { ChoiceGroup, FieldFrame, TextInput, useFieldScope } from './fields';

export interface ResourcesState {
  data: ServerResources | undefined;
  loading: boolean;
  error: unknown;
  retry(): void;
}

export const ResourcesContext = createContext<ResourcesState>({ data: undefined, loading: false, error: null, retry: () => {} });

export function useResources(): ResourcesState {
  return useContext(ResourcesContext);
}

/** Discord's permission names as the reader knows them (Discord's own words in their language). */
const PERMISSION_KEYS = {
  VIEW_CHANNEL: 'permission.viewChannel',
  SEND_MESSAGES: 'permission.sendMessages',
  EMBED_LINKS: 'permission.embedLinks',
  READ_MESSAGE_HISTORY: 'permission.readMessageHistory',
  ATTACH_FILES: 'permission.attachFiles',
  MANAGE_CHANNELS: 'permission.manageChannels',
  MANAGE_ROLES: 'permission.manageRoles',
} as const;

function usePermissionNames() {
  const t = useT();
  return (names: string[]) =>
    names
      .map((name) =>
        name in PERMISSION_KEYS
          ? t(PERMISSION_KEYS[name as keyof typeof PERMISSION_KEYS])
          : name
              .toLowerCase()
              .split('_')
              .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
              .join(' '),
      )
      .join(', ');
}

interface PickOption {
  id: string;
  label: string;
  description?: string;
  /** Shown in the list and under the field once picked (the bot cannot post there). */
  warning?: string;
  disabledReason?: string;
  icon?: ReactNode;
}

interface ComboboxProps {
  id: string;
  options: PickOption[];
  onPick(id: string): void;
  placeholder: string;
  describedBy?: string;
  invalid?: boolean;
  /** Keep the list open after a pick (adding several roles). */
  multiple?: boolean;
}

/** An input that filters a list of options as the user types. */
function Combobox({ id, options, onPick, placeholder, describedBy, invalid, multiple = false }: ComboboxProps) {
  const t = useT();
  const listId = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const filtered = useMemo(() => {
    const needle = query.trim().toLowerCase().replace(/^[#@:]/, '');
    return needle === '' ? options : options.filter((o) => o.label.toLowerCase().includes(needle) || (o.description ?? '').toLowerCase().includes(needle));
  }, [options, query]);
  const current = filtered[Math.min(active, filtered.length - 1)];

  const pick = (option: PickOption | undefined) => {
    if (!option || option.disabledReason) return;
    onPick(option.id);
    setQuery('');
    setActive(0);
    if (!multiple) setOpen(false);
  };

  return (
    <div className="relative">
      <input
        id={id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && current ? `${listId}-${current.id}` : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        autoComplete="off"
        spellCheck={false}
        className={inputClasses}
        placeholder={placeholder}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onClick={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            if (!open) setOpen(true);
            else setActive((i) => Math.min(i + 1, filtered.length - 1));
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            setActive((i) => Math.max(i - 1, 0));
          } else if (event.key === 'Home' && open) {
            setActive(0);
          } else if (event.key === 'End' && open) {
            setActive(filtered.length - 1);
          } else if (event.key === 'Enter') {
            // Never submits the form from here.
            event.preventDefault();
            if (open) pick(current);
          } else if (event.key === 'Escape') {
            if (open) {
              event.preventDefault();
              setOpen(false);
            } else if (query) setQuery('');
          }
        }}
      />
      <div
        id={listId}
        role="listbox"
        aria-label={placeholder}
        hidden={!open}
        className="absolute z-30 mt-1 max-h-64 w-full overflow-auto rounded-lg border border-surface-200 bg-white py-1 text-sm shadow-lg dark:border-surface-700 dark:bg-surface-900"
      >
        {filtered.length === 0 ? (
          // biome-ignore lint/a11y/useFocusableInteractive: options of a combobox are reached with aria-activedescendant, never focused
          <div role="option" aria-disabled="true" aria-selected={false} className="px-3 py-2 text-surface-500 dark:text-surface-400">
            {t('picker.noMatch')}
          </div>
        ) : (
          filtered.map((option, index) => (
            // biome-ignore lint/a11y/useFocusableInteractive: options of a combobox are reached with aria-activedescendant, never focused
            // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input handles the keys (arrows, Enter, Escape)
            <div
              key={option.id}
              id={`${listId}-${option.id}`}
              role="option"
              aria-selected={index === active}
              aria-disabled={option.disabledReason ? true : undefined}
              onMouseDown={(e) => e.preventDefault()}
              onMouseEnter={() => setActive(index)}
              onClick={() => pick(option)}
              className={cx(
                'flex cursor-pointer items-start gap-2 px-3 py-1.5',
                index === active && 'bg-primary-50 dark:bg-primary-950',
                option.disabledReason && 'cursor-not-allowed opacity-60',
              )}
            >
              {option.icon ? <span className="mt-0.5 shrink-0">{option.icon}</span> : null}
              <span className="min-w-0">
                <span className="block break-words text-surface-900 dark:text-surface-50">{option.label}</span>
                {option.description ? <span className="block text-xs text-surface-500 dark:text-surface-400">{option.description}</span> : null}
                {option.warning || option.disabledReason ? (
                  <span className="flex items-start gap-1 text-xs text-amber-800 dark:text-amber-300">
                    <AlertTriangle aria-hidden="true" className="mt-px size-3 shrink-0" />
                    {option.disabledReason ?? option.warning}
                  </span>
                ) : null}
              </span>
            </div>
          ))
        )}
      </div>
    </div>
  );
}

/** What a picker shows instead of its list while the server's resources load or when they cannot be. */
function ResourcesUnavailable({ id, what }: { id: string; what: 'channels' | 'roles' | 'emojis' }) {
  const t = useT();
  const resources = useResources();
  if (resources.loading) {
    return (
      <div id={id} className="flex items-center gap-2 rounded-lg border border-dashed border-surface-300 px-3 py-2 text-sm text-surface-600 dark:border-surface-700 dark:text-surface-400">
        <Spinner size="sm" label={null} />
        {t(`picker.loading.${what}`)}
      </div>
    );
  }
  return (
    <div id={id} className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
      <p className="font-medium">{t(`picker.failed.${what}`)}</p>
      <p className="mt-0.5 text-xs">{isMissingRoute(resources.error) ? t('picker.failed.notYet') : failureText(resources.error)}</p>
      <Button size="sm" variant="secondary" className="mt-2" onClick={resources.retry}>
        {t('common.retry')}
      </Button>
    </div>
  );
}

function channelIcon(channel: ServerChannel) {
  const Icon = channel.kind === 'category' ? Folder : channel.kind === 'announcement' ? Megaphone : Hash;
  return <Icon aria-hidden="true" className="size-4 text-surface-500" />;
}

/** How a channel is named in a picker: "#name" (a category in capitals, as Discord lists them). */
export function channelLabel(channel: ServerChannel): string {
  return channel.kind === 'category' ? channel.name.toUpperCase() : `#${channel.name}`;
}

function SelectedChip({ children, onRemove, removeLabel, colour }: { children: ReactNode; onRemove(): void; removeLabel: string; colour?: string }) {
  return (
    <span className="inline-flex max-w-full items-center gap-1.5 rounded-full border border-surface-300 bg-surface-50 py-0.5 pr-1 pl-2.5 text-sm text-surface-900 dark:border-surface-700 dark:bg-surface-800 dark:text-surface-50">
      {colour ? <span aria-hidden="true" className="size-2.5 shrink-0 rounded-full" style={{ backgroundColor: colour }} /> : null}
      <span className="min-w-0 break-words">{children}</span>
      <button type="button" onClick={onRemove} aria-label={removeLabel} className="rounded-full p-0.5 text-surface-500 hover:bg-surface-200 hover:text-surface-900 focus-visible:outline-2 focus-visible:outline-primary-600 dark:hover:bg-surface-700 dark:hover:text-surface-50">
        <CloseIcon aria-hidden="true" className="size-3.5" />
      </button>
    </span>
  );
}

interface ChannelPickerProps {
  path: string;
  label: ReactNode;
  value: string | null;
  onChange(value: string | null): void;
  /** 'category' for a ticket category; 'text' for a channel the bot posts in. */
  kind: 'category' | 'text';
  /** What no channel means here ("the server's default: #transcripts", "none"). */
  emptyText: string;
  hint?: ReactNode;
  /** Only channels the bot can post in can be picked (the others say what the bot lacks). */
  requirePost?: boolean;
}

export function ChannelPicker({ path, label, value, onChange, kind, emptyText, hint, requirePost = false }: ChannelPickerProps) {
  const t = useT();
  const resources = useResources();
  const permissionNames = usePermissionNames();
  const channels = resources.data?.channels;
  const options = useMemo<PickOption[]>(() => {
    if (!channels) return [];
    const parents = new Map(channels.filter((c) => c.kind === 'category').map((c) => [c.id, c.name]));
    return channels
      // In the order the API gives: Discord's own (each category followed by its channels).
      .filter((c) => (kind === 'category' ? c.kind === 'category' : c.kind === 'text' || c.kind === 'announcement'))
      .map((channel) => {
        const cannot = kind === 'text' && !channel.botCanPost ? t('picker.botCannotPost', { missing: permissionNames(channel.botMissing) }) : undefined;
        return {
          id: channel.id,
          label: channelLabel(channel),
          description: channel.parentId ? parents.get(channel.parentId) : undefined,
          icon: channelIcon(channel),
          warning: cannot ?? (channel.botMissing.length > 0 ? t('picker.botMissing', { missing: permissionNames(channel.botMissing) }) : undefined),
          disabledReason: requirePost ? cannot : undefined,
        };
      });
  }, [channels, kind, t, permissionNames, requirePost]);
  const selected = value === null ? null : channels?.find((c) => c.id === value);
  const selectedOption = options.find((o) => o.id === value);

  return (
    <FieldFrame path={path} label={label} hint={hint}>
      {(control) => (
        <div className="space-y-2">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            {value === null ? (
              <span className="text-surface-600 dark:text-surface-400">{emptyText}</span>
            ) : (
              <SelectedChip onRemove={() => onChange(null)} removeLabel={t('picker.clear', { name: selected ? channelLabel(selected) : value })}>
                {selected ? channelLabel(selected) : channels ? t('picker.channelGone', { id: value }) : t('picker.channelId', { id: value })}
              </SelectedChip>
            )}
          </div>
          {selectedOption?.warning ? (
            <p className="flex items-start gap-1 text-xs text-amber-800 dark:text-amber-300">
              <AlertTriangle aria-hidden="true" className="mt-px size-3.5 shrink-0" />
              {selectedOption.warning}
            </p>
          ) : null}
          {channels ? (
            <Combobox
              id={control.id}
              options={options}
              onPick={(id) => onChange(id)}
              placeholder={t(kind === 'category' ? 'picker.searchCategories' : 'picker.searchChannels')}
              describedBy={control['aria-describedby']}
              invalid={control['aria-invalid']}
            />
          ) : (
            <ResourcesUnavailable id={control.id} what="channels" />
          )}
        </div>
      )}
    </FieldFrame>
  );
}

/** "@Support": a role as Discord mentions it (@everyone keeps its own @). */
export function roleLabel(role: Pick<ServerRole, 'name'>): string {
  return role.name.startsWith('@') ? role.name : `@${role.name}`;
}

function roleColour(role: ServerRole): string {
  return role.color === 0 ? '#99aab5' : `#${role.color.toString(16).padStart(6, '0')}`;
}

export function RolePicker({ path, label, values, onChange, max, hint }: { path: string; label: ReactNode; values: string[]; onChange(values: string[]): void; max: number; hint?: ReactNode }) {
  const t = useT();
  const resources = useResources();
  const { under } = useFieldScope();
  const roles = resources.data?.roles;
  const options = useMemo<PickOption[]>(
    () =>
      (roles ?? [])
        .filter((r) => !values.includes(r.id))
        .sort((a, b) => b.position - a.position)
        .map((role) => ({
          id: role.id,
          label: roleLabel(role),
          icon: <span aria-hidden="true" className="mt-0.5 block size-3 rounded-full" style={{ backgroundColor: roleColour(role) }} />,
          disabledReason: role.managed ? t('picker.roleManaged') : undefined,
        })),
    [roles, values, t],
  );
  const full = values.length >= max;
  return (
    <FieldFrame path={path} label={label} hint={hint} extraErrors={under(path)}>
      {(control) => (
        <div className="space-y-2">
          {values.length > 0 ? (
            <ul className="flex flex-wrap gap-1.5" aria-label={t('picker.chosenRoles')}>
              {values.map((id, index) => {
                const role = roles?.find((r) => r.id === id);
                const name = role ? roleLabel(role) : roles ? t('picker.roleGone', { id }) : t('picker.roleId', { id });
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a role may be listed twice (the schema flags the copy)
                  <li key={`${id}-${index}`}>
                    <SelectedChip colour={role ? roleColour(role) : undefined} onRemove={() => onChange(values.filter((_, i) => i !== index))} removeLabel={t('picker.removeRole', { name })}>
                      {name}
                    </SelectedChip>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p className="text-sm text-surface-600 dark:text-surface-400">{t('picker.noRoles')}</p>
          )}
          {!roles ? (
            <ResourcesUnavailable id={control.id} what="roles" />
          ) : full ? (
            <p id={control.id} className="text-xs text-surface-600 dark:text-surface-400">
              {t('picker.rolesFull', { max })}
            </p>
          ) : (
            <Combobox id={control.id} multiple options={options} onPick={(id) => onChange([...values, id])} placeholder={t('picker.searchRoles')} describedBy={control['aria-describedby']} invalid={control['aria-invalid']} />
          )}
        </div>
      )}
    </FieldFrame>
  );
}

/** A single role (an access rule's role). */
export function SingleRolePicker({ id, onPick, exclude, placeholder }: { id: string; onPick(id: string): void; exclude: string[]; placeholder: string }) {
  const t = useT();
  const resources = useResources();
  const roles = resources.data?.roles;
  if (!roles) return <ResourcesUnavailable id={id} what="roles" />;
  const options = roles
    .filter((r) => !exclude.includes(r.id))
    .sort((a, b) => b.position - a.position)
    .map((role) => ({
      id: role.id,
      label: roleLabel(role),
      icon: <span aria-hidden="true" className="mt-0.5 block size-3 rounded-full" style={{ backgroundColor: roleColour(role) }} />,
      disabledReason: role.managed ? t('picker.roleManaged') : undefined,
    }));
  return <Combobox id={id} options={options} onPick={onPick} placeholder={placeholder} />;
}

type EmojiMode = 'none' | 'unicode' | 'custom';

/** A button's emoji: none, a standard emoji typed in, or one of the server's own. */
export function EmojiField({ path, value, onChange }: { path: string; value: ComponentEmoji | null; onChange(value: ComponentEmoji | null): void }) {
  const t = useT();
  const config = useRuntimeConfig();
  const resources = useResources();
  const [unicode, setUnicode] = useState(typeof value === 'string' ? value : '🎫');
  const mode: EmojiMode = value === null ? 'none' : typeof value === 'string' ? 'unicode' : 'custom';
  const emojis = resources.data?.emojis;
  const options = useMemo<PickOption[]>(
    () =>
      (emojis ?? []).map((emoji) => ({
        id: emoji.id,
        label: `:${emoji.name}:`,
        icon: <img src={emojiUrl(config.discordOrigin, emoji.id, emoji.animated, 32)} alt="" className="size-5 object-contain" loading="lazy" />,
      })),
    [emojis, config.discordOrigin],
  );
  return (
    <div className="space-y-3">
      <ChoiceGroup<EmojiMode>
        path={`${path}.mode`}
        legend={t('emoji.legend')}
        value={mode}
        onChange={(next) => {
          if (next === 'none') onChange(null);
          else if (next === 'unicode') onChange(unicode);
          else if (emojis?.[0]) onChange({ id: emojis[0].id, name: emojis[0].name, animated: emojis[0].animated });
          else onChange({ id: '', name: '', animated: false });
        }}
        options={[
          { value: 'none', label: t('emoji.none') },
          { value: 'unicode', label: t('emoji.unicode') },
          { value: 'custom', label: t('emoji.custom') },
        ]}
      />
      {mode === 'unicode' ? (
        <TextInput
          path={path}
          label={t('emoji.unicodeLabel')}
          value={typeof value === 'string' ? value : ''}
          onChange={(next) => {
            setUnicode(next);
            onChange(next);
          }}
          hint={t('emoji.unicodeHint')}
          className="max-w-xs"
          spellCheck={false}
        />
      ) : null}
      {mode === 'custom' && value !== null && typeof value === 'object' ? (
        <FieldFrame path={path} label={t('emoji.customLabel')}>
          {(control) => (
            <div className="space-y-2">
              {value.id !== '' ? (
                <p className="flex items-center gap-2 text-sm text-surface-800 dark:text-surface-200">
                  <img src={emojiUrl(config.discordOrigin, value.id, value.animated, 32)} alt="" className="size-6 object-contain" />
                  <span>{`:${value.name}:`}</span>
                </p>
              ) : null}
              {emojis ? (
                emojis.length === 0 ? (
                  <p id={control.id} className="text-sm text-surface-600 dark:text-surface-400">
                    {t('emoji.noneOnServer')}
                  </p>
                ) : (
                  <Combobox
                    id={control.id}
                    options={options}
                    onPick={(id) => {
                      const emoji = emojis.find((e) => e.id === id);
                      if (emoji) onChange({ id: emoji.id, name: emoji.name, animated: emoji.animated });
                    }}
                    placeholder={t('emoji.search')}
                    describedBy={control['aria-describedby']}
                    invalid={control['aria-invalid']}
                  />
                )
              ) : (
                <ResourcesUnavailable id={control.id} what="emojis" />
              )}
            </div>
          )}
        </FieldFrame>
      ) : null}
    </div>
  );
}
