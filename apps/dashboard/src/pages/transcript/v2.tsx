import { selectGuilds, useAppSelector, useParams } from '@tickety/shared';
import { TranscriptFrame } from './transcript-frame';

/** A transcript stored by this service (/transcript/v2/:server/:fileid). */
export default function TranscriptV2() {
  const { server = '', fileid = '' } = useParams();
  const guild = useAppSelector(selectGuilds).find((g) => g.id === server);
  return (
    <TranscriptFrame
      title={`Transcript ${fileid}`}
      version="v2"
      details={[
        { label: 'Server', value: guild ? `${guild.name} (${server})` : server },
        { label: 'Transcript ID', value: fileid },
      ]}
    >
      This version of the dashboard cannot show transcripts yet. The viewer arrives in a later version: messages shown as in Discord (formatting,
      mentions, embeds, attachments and replies), search within the transcript, and a download.
    </TranscriptFrame>
  );
}
