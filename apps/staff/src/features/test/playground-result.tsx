import { formatNumber } from '@tickety/shared';
import { Badge, Card } from '@tickety/ui';
import { useId } from 'react';
import { useT } from '../../lib/i18n';

/** An error overlay the request client showed while the run was waiting. */
interface ShownOverlay {
  title: string;
  /** '<code> - <http status>' (Request Failed), else null. */
  detail: string | null;
  /** Retries already asked for when it showed (0: the first failure). */
  attempt: number;
}

/** One press of a playground button, and what the request client reported. */
export interface PlaygroundRun {
  id: number;
  /** The button's label when it was pressed. */
  label: string;
  /** 'GET /api/staff/playground/…' */
  request: string;
  startedAt: number;
  /** When the loading overlay appeared (ms after the press), or null. */
  loadingAfterMs: number | null;
  shown: ShownOverlay[];
  end: null | { ms: number; ok: true; recovered: boolean } | { ms: number; ok: false; kind: string; message: string };
}

/** Seconds with at most two decimals, in the reader's format. */
export function seconds(ms: number): string {
  return formatNumber(Math.round(ms / 10) / 100);
}

/** The outcome in one sentence (also what the live region announces). */
function useOutcomeText(): (run: PlaygroundRun) => string {
  const t = useT();
  return (run) => {
    if (!run.end) return t('test.result.running', { label: run.label });
    if (run.end.ok) return t(run.end.recovered ? 'test.result.recovered' : 'test.result.ok', { seconds: seconds(run.end.ms) });
    return t('test.result.failed', { seconds: seconds(run.end.ms), message: run.end.message });
  };
}

/** "Last result": the button, the request, whether the loading overlay showed, each error overlay, the outcome. */
export function PlaygroundResult({ run }: { run: PlaygroundRun | null }) {
  const t = useT();
  const id = useId();
  const outcome = useOutcomeText();
  const term = 'font-medium text-surface-900 dark:text-surface-50';
  const value = 'mt-0.5 text-surface-700 break-words dark:text-surface-300';
  return (
    <Card className="p-5 sm:p-6">
      <section aria-labelledby={`${id}-heading`}>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id={`${id}-heading`} className="text-base font-semibold text-surface-900 dark:text-surface-50">
            {t('test.result.heading')}
          </h2>
          {run ? (
            <Badge tone={!run.end ? 'info' : run.end.ok ? 'primary' : 'warning'}>
              {!run.end ? t('test.result.badge.waiting') : run.end.ok ? t('test.result.badge.ok') : t('test.result.badge.failed')}
            </Badge>
          ) : null}
        </div>
        <p role="status" aria-live="polite" className="mt-2 text-sm text-surface-700 dark:text-surface-300">
          {run ? `${run.label}: ${outcome(run)}` : t('test.result.none')}
        </p>
        {run ? (
          <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
            <div>
              <dt className={term}>{t('test.result.request')}</dt>
              <dd className={value}>
                <code className="font-mono text-xs break-all">{run.request}</code>
              </dd>
            </div>
            <div>
              <dt className={term}>{t('test.result.loading')}</dt>
              <dd className={value}>
                {run.loadingAfterMs === null ? t('test.result.loadingNotShown') : t('test.result.loadingShown', { seconds: seconds(run.loadingAfterMs) })}
              </dd>
            </div>
            <div className="sm:col-span-2">
              <dt className={term}>{t('test.result.overlay')}</dt>
              <dd className={value}>
                {run.shown.length === 0 ? (
                  t('test.result.overlayNone')
                ) : (
                  <ol className="list-decimal space-y-0.5 pl-5">
                    {run.shown.map((shown, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the list only grows, in order
                      <li key={i}>
                        {shown.title}
                        {shown.detail ? <span className="font-mono text-xs"> ({shown.detail})</span> : null}
                        {shown.attempt > 0 ? ` · ${t('test.result.retry', { n: formatNumber(shown.attempt) })}` : null}
                      </li>
                    ))}
                  </ol>
                )}
              </dd>
            </div>
          </dl>
        ) : null}
      </section>
    </Card>
  );
}
