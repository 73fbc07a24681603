import { Button } from '@tickety/ui';
import { type ReactNode, useId } from 'react';

export interface ConfirmInPlaceProps {
  title: string;
  /** What the change does: its accessible description. */
  children: ReactNode;
  /** The confirming button's words; the button is red (every billing confirmation gives something up). */
  confirmLabel: string;
  /** The way out without the change ("Keep subscription"). */
  cancelLabel: string;
  busy: boolean;
  onConfirm: () => void;
  /** The caller returns focus to where it was. */
  onCancel: () => void;
}

/** A change asked about in place, under the button that started it (cancelling a subscription): not a modal dialog. */
export function ConfirmInPlace({ title, children, confirmLabel, cancelLabel, busy, onConfirm, onCancel }: ConfirmInPlaceProps) {
  const ids = useId();
  return (
    <div role="alertdialog" aria-labelledby={`${ids}-title`} aria-describedby={`${ids}-body`} className="mt-4 rounded-lg border border-red-300 p-4 dark:border-red-800">
      <h3 id={`${ids}-title`} className="font-semibold text-surface-900 dark:text-surface-50">
        {title}
      </h3>
      <p id={`${ids}-body`} className="mt-1 text-sm text-surface-700 dark:text-surface-300">
        {children}
      </p>
      <div className="mt-3 flex flex-wrap gap-3">
        <Button variant="danger" loading={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          {cancelLabel}
        </Button>
      </div>
    </div>
  );
}
