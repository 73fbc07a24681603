import { type ReactNode, useEffect, useId, useRef } from 'react';
import { Alert } from './badge';
import { Button } from './button';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  /** Shown below the description, not part of it (a preview of what the change acts on). */
  extra?: ReactNode;
  /** The change failed: shown in the dialog, which stays open (the caller relabels confirm "Try again"). */
  failure?: { title: string; reason: ReactNode } | null;
  /** An `alertdialog`: the question interrupts work in progress (a staff change). */
  alert?: boolean;
  /** Null: only the cancel answer (the dialog explains why the action cannot be done). */
  confirmLabel: string | null;
  cancelLabel: string;
  /** 'danger' for something that cannot be undone (a delete, discarding changes). */
  tone?: 'danger' | 'primary';
  busy?: boolean;
  /** The confirming answer is not possible yet (nothing chosen). */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal question with two answers, on the native `<dialog>` (focus moves in and is kept there,
 * Escape cancels, the page behind is inert, and focus returns to where it was). It stays inside the
 * remote's subtree, so the remote's scoped styles apply (docs/architecture.md, "CSS"). The caller
 * passes every word in its own catalogue's language.
 */
export function ConfirmDialog({ open, title, children, extra, failure = null, alert = false, confirmLabel, cancelLabel, tone = 'danger', busy = false, confirmDisabled = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      // The safe answer first: Enter on a dialog opened by accident does not delete anything.
      cancelRef.current?.focus();
      return () => {
        if (dialog.open) dialog.close();
        opener?.focus();
      };
    }
  }, [open]);

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      role={alert ? 'alertdialog' : undefined}
      aria-labelledby={titleId}
      aria-describedby={children ? bodyId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
      className="m-auto w-[min(30rem,calc(100vw-2rem))] overflow-visible rounded-xl border border-surface-200 bg-white p-0 text-surface-900 shadow-xl backdrop:bg-surface-950/60 dark:border-surface-700 dark:bg-surface-900 dark:text-surface-50"
    >
      <div className="p-5">
        <h2 id={titleId} className="text-lg font-semibold break-words">
          {title}
        </h2>
        {children ? (
          <div id={bodyId} className="mt-2 space-y-2 text-sm text-surface-700 dark:text-surface-300">
            {children}
          </div>
        ) : null}
        {extra ? <div className="mt-3">{extra}</div> : null}
        {failure ? (
          <Alert tone="danger" title={failure.title} className="mt-4">
            {failure.reason}
          </Alert>
        ) : null}
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </Button>
          {confirmLabel !== null ? (
            <Button variant={tone === 'danger' ? 'danger' : 'primary'} onClick={onConfirm} loading={busy} disabled={confirmDisabled}>
              {confirmLabel}
            </Button>
          ) : null}
        </div>
      </div>
    </dialog>
  );
}
