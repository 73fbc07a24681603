import { selectGuilds, useAppSelector, useParams } from '@tickety/shared';
import { useT } from '../../lib/i18n';
import { TranscriptFrame } from './transcript-frame';

/** A transcript stored by this service (/transcript/v2/:server/:fileid). */
export default function TranscriptV2() {
  const t = useT();
  const { server = '', fileid = '' } = useParams();
  const guild = useAppSelector(selectGuilds).find((g) => g.id === server);
  return (
    <TranscriptFrame
      title={t('transcript.v2.title', { id: fileid })}
      version="v2"
      details={[
        { label: t('transcript.v2.server'), value: guild ? `${guild.name} (${server})` : server },
        { label: t('transcript.v2.id'), value: fileid },
      ]}
    >
      {t('transcript.v2.notice')}
    </TranscriptFrame>
  );
}
