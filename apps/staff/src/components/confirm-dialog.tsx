import { failureText } from '@tickety/shared';
import { ConfirmDialog as Dialog } from '@tickety/ui';
import type { ReactNode } from 'react';
import { useT } from '../lib/i18n';

export interface ConfirmDialogProps {
  title: string;
  /** What the change does: the dialog's accessible description. */
  children: ReactNode;
  /** Shown below the description (a preview of what the change acts on). */
  extra?: ReactNode;
  /** The confirming button's words ("Add Nico", "Replay"); after a failure it says "Try again". */
  confirmLabel: string;
  /** A removal or withdrawal: the confirming button is red. */
  danger?: boolean;
  busy: boolean;
  /** The change's failure, or undefined. */
  error: unknown;
  errorTitle: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Every staff change is confirmed in `@tickety/ui`'s dialog, in the staff catalogue's words; a failure stays in it. */
export function ConfirmDialog({ title, children, extra, confirmLabel, danger = false, busy, error, errorTitle, onConfirm, onCancel }: ConfirmDialogProps) {
  const t = useT();
  const failed = error !== undefined;
  return (
    <Dialog
      open
      alert
      title={title}
      extra={extra}
      failure={failed ? { title: errorTitle, reason: failureText(error) } : null}
      confirmLabel={failed ? t('dialog.again') : confirmLabel}
      cancelLabel={t('dialog.cancel')}
      tone={danger ? 'danger' : 'primary'}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {children}
    </Dialog>
  );
}
