import { ConfirmDialog } from '../../components/confirm-dialog';
import { useT } from '../../lib/i18n';
import { AnnouncementPreview } from './announcement-preview';
import type { Announcement } from './api';

interface AnnouncementWithdrawDialogProps {
  notice: Announcement;
  busy: boolean;
  /** The withdrawal's failure (shown in the dialog), or undefined. */
  error: unknown;
  onConfirm: () => void;
  /** Cancel, Escape: the caller returns focus to where it was. */
  onCancel: () => void;
}

/**
 * "Withdraw this announcement?", the notice shown as readers see it. Withdrawn, it leaves every
 * banner within a minute and cannot be published again.
 */
export function AnnouncementWithdrawDialog({ notice, busy, error, onConfirm, onCancel }: AnnouncementWithdrawDialogProps) {
  const t = useT();
  return (
    <ConfirmDialog
      title={t('announcements.withdraw.title')}
      confirmLabel={t('announcements.withdraw.confirm')}
      danger
      busy={busy}
      error={error}
      errorTitle={t('announcements.withdraw.failed')}
      onConfirm={onConfirm}
      onCancel={onCancel}
      extra={<AnnouncementPreview severity={notice.severity} text={notice.text} empty="" />}
    >
      <p>{t(notice.status === 'draft' ? 'announcements.withdraw.bodyDraft' : 'announcements.withdraw.body')}</p>
    </ConfirmDialog>
  );
}
