import { formatDateTime, useParams } from '@tickety/shared';
import { Alert, Badge, Button, Skeleton } from '@tickety/ui';
import FileText from 'lucide-react/icons/file-text';
import { useEffect, useState } from 'react';
import { useT } from './i18n';
import { v1FileUrl } from './api';
import { decodeHexSeconds } from './cdn-signature';

function When({ date }: { date: Date | null }) {
  const t = useT();
  if (!date) return <span className="text-surface-500">{t('transcript.v1.invalidTime')}</span>;
  return <time dateTime={date.toISOString()}>{formatDateTime(date)}</time>;
}

type Probe = { state: 'loading' } | { state: 'ready' } | { state: 'failed'; message: string; code: string };

/**
 * A legacy transcript (/transcript/v1/:channel/:attachment/:filename/:ex/:is/:hm): a file attached to
 * a Discord message; the path carries the CDN's signed parameters (`ex` expiry and `is` issue time in
 * hex Unix seconds, `hm` the signature). The API fetches it (refreshing an expired link through the
 * bot), sanitises it and answers it as its own document with a restrictive CSP; it is shown here in a
 * sandboxed frame without scripts (`sandbox=""`: no scripts, no same-origin, no forms, no popups).
 * The address is asked once first, so a failure shows as a message rather than inside the frame.
 */
export default function TranscriptV1() {
  const t = useT();
  const { channel = '', attachment = '', filename = '', ex = '', is = '', hm = '' } = useParams();
  const expires = decodeHexSeconds(ex);
  const expired = expires !== null && expires.getTime() <= Date.now();
  const src = v1FileUrl([channel, attachment, filename, ex, is, hm]);
  const [probe, setProbe] = useState<Probe>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [frameLoaded, setFrameLoaded] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    setProbe({ state: 'loading' });
    setFrameLoaded(false);
    // A retry asks the network again, never a cached answer.
    // The header marks the dashboard's own read (the API writes the view to the server's Web Logs).
    fetch(src, { credentials: 'include', headers: { 'x-requested-with': 'tickety' }, signal: controller.signal, cache: attempt > 0 ? 'reload' : 'default' })
      .then(async (res) => {
        if (res.ok) return setProbe({ state: 'ready' });
        const body = (await res.json().catch(() => null)) as { code?: number; message?: string } | null;
        setProbe({ state: 'failed', message: body?.message ?? t('transcript.v1.failed'), code: `${body?.code ?? res.status} - ${res.status}` });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setProbe({ state: 'failed', message: error instanceof Error ? error.message : t('transcript.v1.failed'), code: 'network' });
      });
    return () => controller.abort();
  }, [src, t, attempt]);

  const details = [
    { label: t('transcript.v1.file'), value: filename },
    { label: t('transcript.v1.channel'), value: channel },
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
  ];

  return (
    <div className="mx-auto w-full max-w-5xl">
      <div className="flex items-start gap-3 border-b border-surface-200 pb-4 dark:border-surface-800">
        <FileText aria-hidden="true" className="mt-1 size-6 shrink-0 text-primary-600 dark:text-primary-400" />
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-surface-500 uppercase dark:text-surface-400">{t('transcript.frame.kicker', { version: t('transcript.v1.version') })}</p>
          <h1 className="text-xl font-bold break-all text-surface-900 sm:text-2xl dark:text-surface-50">{filename || t('title.transcriptV1')}</h1>
        </div>
      </div>
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
        {details.map((detail) => (
          <div key={detail.label} className="min-w-0">
            <dt className="text-surface-500 dark:text-surface-400">{detail.label}</dt>
            <dd className="font-medium break-all text-surface-900 dark:text-surface-100">{detail.value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-4 text-sm text-surface-600 dark:text-surface-400">{t('transcript.v1.safety', { expired: expired ? 'yes' : 'no' })}</p>
      <div className="mt-4">
        {probe.state === 'failed' ? (
          <Alert
            tone="danger"
            title={t('transcript.v1.failed')}
            actions={
              <Button variant="secondary" size="sm" onClick={() => setAttempt((n) => n + 1)}>
                {t('common.retry')}
              </Button>
            }
          >
            {probe.message}
            <span className="mt-1 block font-mono text-xs">{probe.code}</span>
          </Alert>
        ) : probe.state === 'loading' ? (
          <div role="status" aria-label={t('transcript.v1.loading')}>
            <Skeleton className="h-[70vh] w-full rounded-lg" />
          </div>
        ) : (
          <div className="relative">
            {frameLoaded ? null : (
              <div role="status" aria-label={t('transcript.v1.loading')} className="absolute inset-0">
                <Skeleton className="h-full w-full rounded-lg" />
              </div>
            )}
            <iframe
              title={t('transcript.v1.frameTitle', { file: filename })}
              src={src}
              sandbox=""
              referrerPolicy="no-referrer"
              onLoad={() => setFrameLoaded(true)}
              className="h-[70vh] w-full rounded-lg border border-surface-200 bg-white dark:border-surface-800 dark:bg-surface-900"
            />
          </div>
        )}
      </div>
    </div>
  );
}
