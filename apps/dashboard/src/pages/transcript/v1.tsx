import { formatDateTime, useParams } from '@tickety/shared';
import { Badge } from '@tickety/ui';
import { decodeHexSeconds } from '../../lib/transcript';
import { TranscriptFrame } from './transcript-frame';

function When({ date }: { date: Date | null }) {
  if (!date) return <span className="text-surface-500">Unknown (not a valid timestamp)</span>;
  return <time dateTime={date.toISOString()}>{formatDateTime(date)}</time>;
}

/**
 * A legacy transcript (/transcript/v1/:channel/:attachment/:filename/:ex/:is/:hm): a file attached to
 * a Discord message; the path carries the CDN's signed parameters (`ex` expiry and `is` issue time in
 * hex Unix seconds, `hm` the signature).
 */
export default function TranscriptV1() {
  const { channel = '', attachment = '', filename = '', ex, is } = useParams();
  const expires = decodeHexSeconds(ex);
  const expired = expires !== null && expires.getTime() <= Date.now();
  return (
    <TranscriptFrame
      title={filename || 'Transcript'}
      version="legacy (v1)"
      details={[
        { label: 'File', value: filename },
        { label: 'Channel ID', value: channel },
        { label: 'Attachment ID', value: attachment },
        { label: 'Link issued', value: <When date={decodeHexSeconds(is)} /> },
        {
          label: expired ? 'Discord link expired' : 'Discord link expires',
          value: (
            <span className="inline-flex flex-wrap items-center gap-2">
              <When date={expires} />
              {expired ? <Badge tone="warning">Expired</Badge> : null}
            </span>
          ),
        },
      ]}
    >
      This version of the dashboard cannot show transcripts yet; the viewer arrives in a later version. This legacy transcript is a file kept by
      Discord, whose link {expired ? 'has expired' : 'expires on the date above'}: the viewer will fetch it for you through the bot, refreshing an
      expired link, and show it here.
    </TranscriptFrame>
  );
}
