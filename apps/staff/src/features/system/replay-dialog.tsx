import type { StaffDeadLetter } from '@tickety/api-contract';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useT } from '../../lib/i18n';
import { PROVIDER_NAMES } from './api';

interface ReplayDialogProps {
  letter: StaffDeadLetter;
  busy: boolean;
  /** The replay's failure (shown in the dialog, in the reader's language), or undefined. */
  error: unknown;
  onConfirm: () => void;
  /** Cancel, Escape: the caller returns focus to where it was. */
  onCancel: () => void;
}

/** "Replay this <provider> event?", with the event's type and key. */
export function ReplayDialog({ letter, busy, error, onConfirm, onCancel }: ReplayDialogProps) {
  const t = useT();
  return (
    <ConfirmDialog
      title={t('webhooks.replay.title', { provider: PROVIDER_NAMES[letter.provider] })}
      confirmLabel={t('webhooks.replay.confirm')}
      busy={busy}
      error={error}
      errorTitle={t('webhooks.replay.failed')}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>{t('webhooks.replay.body')}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="font-medium">{t('webhooks.dead.type')}</dt>
        <dd className="min-w-0 font-mono text-xs break-all">{letter.type}</dd>
        <dt className="font-medium">{t('webhooks.dead.key')}</dt>
        <dd className="min-w-0 font-mono text-xs break-all">{letter.key}</dd>
      </dl>
    </ConfirmDialog>
  );
}
