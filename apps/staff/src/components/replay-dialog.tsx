import { failureText } from '@tickety/shared';
import { Alert, Button } from '@tickety/ui';
import { useEffect, useId, useRef } from 'react';
import { useT } from '../lib/i18n';
import { type DeadLetter, PROVIDER_NAMES } from '../lib/webhooks-api';

export interface ReplayDialogProps {
  letter: DeadLetter;
  busy: boolean;
  /** The replay's failure (shown in the dialog, in the reader's language), or undefined. */
  error: unknown;
  onConfirm: () => void;
  /** Cancel, Escape: the caller returns focus to where it was. */
  onCancel: () => void;
}

/**
 * "Replay this <provider> event?": a modal alertdialog on the native `<dialog>` (focus moves in and
 * is kept there, Escape cancels, the page behind is inert). The safe answer is focused first. It stays
 * inside the remote's subtree, so the remote's scoped styles apply; the caller moves focus back.
 */
export function ReplayDialog({ letter, busy, error, onConfirm, onCancel }: ReplayDialogProps) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const provider = PROVIDER_NAMES[letter.provider];

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    cancelRef.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
      className="m-auto w-[min(30rem,calc(100vw-2rem))] overflow-visible rounded-xl border border-surface-200 bg-white p-0 text-surface-900 shadow-xl backdrop:bg-surface-950/60 dark:border-surface-700 dark:bg-surface-900 dark:text-surface-50"
    >
      <div className="p-5">
        <h2 id={titleId} className="text-lg font-semibold">
          {t('webhooks.replay.title', { provider })}
        </h2>
        <div id={bodyId} className="mt-2 space-y-2 text-sm text-surface-700 dark:text-surface-300">
          <p>{t('webhooks.replay.body')}</p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="font-medium">{t('webhooks.dead.type')}</dt>
            <dd className="min-w-0 font-mono text-xs break-all">{letter.type}</dd>
            <dt className="font-medium">{t('webhooks.dead.key')}</dt>
            <dd className="min-w-0 font-mono text-xs break-all">{letter.key}</dd>
          </dl>
        </div>
        {error !== undefined ? (
          <Alert tone="danger" title={t('webhooks.replay.failed')} className="mt-4">
            {failureText(error)}
          </Alert>
        ) : null}
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={busy}>
            {t('webhooks.replay.cancel')}
          </Button>
          <Button onClick={onConfirm} loading={busy}>
            {error !== undefined ? t('webhooks.replay.again') : t('webhooks.replay.confirm')}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
