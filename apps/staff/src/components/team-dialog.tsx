import { failureText } from '@tickety/shared';
import { Alert, Button } from '@tickety/ui';
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useT } from '../lib/i18n';

export interface TeamConfirmDialogProps {
  title: string;
  children: ReactNode;
  /** The confirming button's words ("Add Nico", "Remove Nico"). */
  confirmLabel: string;
  /** A removal: the confirming button is red. */
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
 * Every team change is confirmed here: a modal alertdialog on the native `<dialog>` (focus moves in
 * and stays, Escape cancels, the page behind is inert), Cancel focused first. A failure stays in the
 * dialog with "Try again".
 */
export function TeamConfirmDialog({ title, children, confirmLabel, danger = false, busy, error, errorTitle, onConfirm, onCancel }: TeamConfirmDialogProps) {
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
        {error !== undefined ? (
          <Alert tone="danger" title={errorTitle} className="mt-4">
            {failureText(error)}
          </Alert>
        ) : null}
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={busy}>
            {t('team.dialog.cancel')}
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={onConfirm} loading={busy}>
            {error !== undefined ? t('team.dialog.again') : confirmLabel}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
