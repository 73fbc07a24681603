import type { TicketCommandView } from '@tickety/api-contract';
import type { Translate } from '@tickety/shared';
import { cx } from '@tickety/ui';
import { type MessageKey, useT } from './i18n';

type Kind = TicketCommandView['kind'];

/** Where a command stands, as one sentence: queued → taken → done, or why it failed (each reason its own). */
export function commandText(t: Translate<MessageKey>, command: Pick<TicketCommandView, 'kind' | 'state' | 'failure'>): string {
  const kind = t(`tickets.command.kind.${command.kind}`);
  if (command.state === 'failed') return t('tickets.command.failed', { kind, reason: t(`tickets.failure.${command.failure?.reason ?? 'other'}`) });
  return t(`tickets.command.${command.state}`, { kind });
}

/** A request that never became a command (the API refused it, or it did not arrive). */
export interface SendFailure {
  kind: Kind;
  reason: string;
}

/** The progress of the actions taken on this page: the latest of each kind, said as it changes. */
export function CommandProgress({ commands, failures }: { commands: readonly TicketCommandView[]; failures: readonly SendFailure[] }) {
  const t = useT();
  const items: Array<{ key: string; command: TicketCommandView | null; failure: SendFailure | null }> = [
    ...commands.map((command) => ({ key: command.id, command, failure: null })),
    ...failures.map((failure, index) => ({ key: `f${index}`, command: null, failure })),
  ];
  return (
    <ul aria-live="polite" aria-label={t('tickets.commands')} className="space-y-1 empty:hidden">
      {items.map(({ key, command, failure }) => {
        const bad = failure !== null || (command !== null && (command.state === 'failed' || command.state === 'expired' || command.state === 'lost'));
        const text = failure ? t('tickets.command.sendFailed', { kind: t(`tickets.command.kind.${failure.kind}`), reason: failure.reason }) : commandText(t, command!);
        return (
          <li key={key} data-command-state={command?.state ?? 'unsent'} className={cx('rounded-md px-2 py-1 text-sm', bad ? 'bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-200' : 'text-surface-700 dark:text-surface-300')}>
            {text}
            {command?.failure?.message ? <span className="block text-xs opacity-80">{command.failure.message}</span> : null}
          </li>
        );
      })}
    </ul>
  );
}
