import { formatDateTime, useParams } from '@tickety/shared';
import { Badge } from '@tickety/ui';
import { useT } from '../../lib/i18n';
import { decodeHexSeconds } from '../../lib/transcript';
import { TranscriptFrame } from './transcript-frame';

function When({ date }: { date: Date | null }) {
  const t = useT();
  if (!date) return <span className="text-surface-500">{t('transcript.v1.invalidTime')}</span>;
  return <time dateTime={date.toISOString()}>{formatDateTime(date)}</time>;
}

/**
 * A legacy transcript (/transcript/v1/:channel/:attachment/:filename/:ex/:is/:hm): a file attached to
 * a Discord message; the path carries the CDN's signed parameters (`ex` expiry and `is` issue time in
 * hex Unix seconds, `hm` the signature).
 */
export default function TranscriptV1() {
  const t = useT();
  const { channel = '', attachment = '', filename = '', ex, is } = useParams();
  const expires = decodeHexSeconds(ex);
  const expired = expires !== null && expires.getTime() <= Date.now();
  return (
    <TranscriptFrame
      title={filename || t('title.transcriptV1')}
      version={t('transcript.v1.version')}
      details={[
        { label: t('transcript.v1.file'), value: filename },
        { label: t('transcript.v1.channel'), value: channel },
        { label: t('transcript.v1.attachment'), value: attachment },
        { label: t('transcript.v1.issued'), value: <When date={decodeHexSeconds(is)} /> },
        {
          label: expired ? t('transcript.v1.expired') : t('transcript.v1.expires'),
          value: (
            <span className="inline-flex flex-wrap items-center gap-2">
              <When date={expires} />
              {expired ? <Badge tone="warning">{t('transcript.v1.expiredBadge')}</Badge> : null}
            </span>
          ),
        },
      ]}
    >
      {t('transcript.v1.notice', { expired: expired ? 'yes' : 'no' })}
    </TranscriptFrame>
  );
}
