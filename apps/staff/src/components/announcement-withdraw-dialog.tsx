import { failureText } from '@tickety/shared';
import { Alert, Button } from '@tickety/ui';
import { useEffect, useId, useRef } from 'react';
import type { Announcement } from '../lib/announcement-api';
import { useT } from '../lib/i18n';
import { AnnouncementPreview } from './announcement-preview';

export interface AnnouncementWithdrawDialogProps {
  notice: Announcement;
  busy: boolean;
  /** The withdrawal's failure (shown in the dialog), or undefined. */
  error: unknown;
  onConfirm: () => void;
  /** Cancel, Escape: the caller returns focus to where it was. */
  onCancel: () => void;
}

/**
 * "Withdraw this announcement?": a modal alertdialog on the native `<dialog>` (focus kept inside,
 * Escape cancels, the page behind inert), the safe answer focused first, the notice shown as readers
 * see it. Withdrawn, it leaves every banner within a minute and cannot be published again.
 */
export function AnnouncementWithdrawDialog({ notice, busy, error, onConfirm, onCancel }: AnnouncementWithdrawDialogProps) {
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
        <h2 id={titleId} className="text-lg font-semibold">
          {t('announcements.withdraw.title')}
        </h2>
        <p id={bodyId} className="mt-2 text-sm text-surface-700 dark:text-surface-300">
          {t(notice.status === 'draft' ? 'announcements.withdraw.bodyDraft' : 'announcements.withdraw.body')}
        </p>
        <div className="mt-3">
          <AnnouncementPreview severity={notice.severity} text={notice.text} empty="" />
        </div>
        {error !== undefined ? (
          <Alert tone="danger" title={t('announcements.withdraw.failed')} className="mt-4">
            {failureText(error)}
          </Alert>
        ) : null}
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={busy}>
            {t('announcements.withdraw.cancel')}
          </Button>
          <Button variant="danger" onClick={onConfirm} loading={busy}>
            {t('announcements.withdraw.confirm')}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
