import { failureText } from '@tickety/shared';
import { Alert, Button } from '@tickety/ui';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useT } from '../lib/i18n';

export interface ConfirmDialogProps {
  title: string;
  /** What the change does: the dialog's accessible description. */
  children: ReactNode;
  /** Shown below the description, not part of it (a preview of what the change acts on). */
  extra?: ReactNode;
  /** The confirming button's words ("Add Nico", "Replay"); after a failure it says "Try again". */
  confirmLabel: string;
  /** A removal or withdrawal: the confirming button is red. */
  danger?: boolean;
  busy: boolean;
  /** The change's failure (shown in the dialog, in the reader's language), or undefined. */
  error: unknown;
  errorTitle: string;
  onConfirm: () => void;
  /** Cancel, Escape: the caller returns focus to where it was. */
  onCancel: () => void;
}

/**
 * Every staff change is confirmed here (team changes, signing a user out everywhere, replaying a dead
 * webhook, withdrawing an announcement): a modal alertdialog on the native `<dialog>` (focus moves in
 * and stays, Escape cancels, the page behind is inert), Cancel focused first. It stays inside the
 * remote's subtree, so the remote's scoped styles apply. A failure stays in the dialog with "Try again".
 */
export function ConfirmDialog({ title, children, extra, confirmLabel, danger = false, busy, error, errorTitle, onConfirm, onCancel }: ConfirmDialogProps) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

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
      className="m-auto w-[min(32rem,calc(100vw-2rem))] overflow-visible rounded-xl border border-surface-200 bg-white p-0 text-surface-900 shadow-xl backdrop:bg-surface-950/60 dark:border-surface-700 dark:bg-surface-900 dark:text-surface-50"
    >
      <div className="p-5">
        <h2 id={titleId} className="text-lg font-semibold break-words">
          {title}
        </h2>
        <div id={bodyId} className="mt-2 space-y-2 text-sm text-surface-700 dark:text-surface-300">
          {children}
        </div>
        {extra ? <div className="mt-3">{extra}</div> : null}
        {error !== undefined ? (
          <Alert tone="danger" title={errorTitle} className="mt-4">
            {failureText(error)}
          </Alert>
        ) : null}
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={busy}>
            {t('dialog.cancel')}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm} loading={busy}>
            {error !== undefined ? t('dialog.again') : confirmLabel}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
