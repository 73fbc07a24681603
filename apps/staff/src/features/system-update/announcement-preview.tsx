import type { AnnouncementSeverity } from '@tickety/api-contract';
import { AnnouncementBody, AnnouncementText, SEVERITY_CLASSES } from '@tickety/shared/announcement-text';
import type { ReactNode } from 'react';
import { useT } from '../../lib/i18n';

/**
 * One notice as the shell's banner shows it (without its dismiss button): the form's live preview,
 * drawn with the same pieces as the banner (`@tickety/shared/announcement-text`).
 */
export function AnnouncementPreview({ severity, text, empty }: { severity: AnnouncementSeverity; text: string; empty: ReactNode }) {
  const t = useT();
  return (
    <div className={`flex items-start gap-3 rounded-xl border p-3 text-sm shadow-sm sm:p-4 ${SEVERITY_CLASSES[severity]}`}>
      <AnnouncementBody severity={severity} label={t(`announcements.severity.${severity}`)}>
        {text.trim() === '' ? <p className="italic opacity-70">{empty}</p> : <AnnouncementText text={text} />}
      </AnnouncementBody>
    </div>
  );
}
