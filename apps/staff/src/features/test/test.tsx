import { ApiRequestError, failureText, formatNumber, OVERLAY, request, useOverlayState } from '@tickety/shared';
import { Button, Card, cx, LoadFailed, PageHeader, Skeleton } from '@tickety/ui';
import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../lib/i18n';
import {
  describeRequest,
  LOGIN_CODE,
  NO_ACCESS_CODES,
  overlayRequest,
  type PlaygroundCode,
  type PlaygroundRequest,
  playgroundRequests,
  REAL_HOLD_MS,
  RECOVER_AFTER_MS,
  SHORT_TIMEOUT_MS,
  SLOW_WAITS_MS,
  useStaffPlaygroundQuery,
} from './api';
import { PlaygroundGroup } from './playground-group';
import { PlaygroundResult, type PlaygroundRun } from './playground-result';

/** Until the API has said (its index): waiting requests of one staff member it allows at once, and how often it sends a blank while holding an answer. */
const HOLDS_PER_USER = 3;
const KEEP_ALIVE_MS = 10_000;

const checkbox =
  'mt-0.5 size-4 shrink-0 rounded border-surface-400 text-primary-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-500 dark:border-surface-600 dark:bg-surface-900';

/**
 * /test (SPECIAL_TEAM_MANAGER_READ): the staff playground for the request overlay and the error
 * catalogue. Every button sends a real request to `/api/staff/playground` through the shared request
 * client with the overlay on, so what shows is the overlay every page shows (loading after its delay,
 * Login Required, no access to a server, each catalogue code with Retry, a timeout, a network
 * failure, a slow success); the last result says what the client reported.
 */
export default function TestPage() {
  const t = useT();
  const ids = useId();
  const catalogue = useStaffPlaygroundQuery();
  const overlay = useOverlayState();
  const [offerCancel, setOfferCancel] = useState(true);
  const [recover, setRecover] = useState(false);
  const [selector, setSelector] = useState(false);
  const [run, setRun] = useState<PlaygroundRun | null>(null);
  const current = useRef<PlaygroundRun | null>(null);
  const seen = useRef<unknown>(null);
  const nextId = useRef(1);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // What the overlay shows while the last run waits: when the loading overlay appeared, each error overlay.
  useEffect(() => {
    const live = current.current;
    if (!live || live.end) return;
    let changed: PlaygroundRun = live;
    if (overlay.loading && live.loadingAfterMs === null) changed = { ...changed, loadingAfterMs: Date.now() - live.startedAt };
    if (overlay.error && overlay.error !== seen.current) {
      seen.current = overlay.error;
      changed = { ...changed, shown: [...changed.shown, { title: overlay.error.title, detail: overlay.error.detail, attempt: overlay.error.attempt }] };
    }
    if (changed !== live) {
      current.current = changed;
      setRun(changed);
    }
  }, [overlay]);

  const trigger = async (label: string, req: PlaygroundRequest) => {
    const started: PlaygroundRun = { id: nextId.current++, label, request: describeRequest(req), startedAt: Date.now(), loadingAfterMs: null, shown: [], end: null };
    current.current = started;
    seen.current = overlay.error;
    setRun(started);
    let end: PlaygroundRun['end'];
    try {
      const answer = await request<{ recovered?: boolean } | undefined>(overlayRequest(req, offerCancel));
      end = { ms: Date.now() - started.startedAt, ok: true, recovered: answer?.recovered === true };
    } catch (error) {
      end = {
        ms: Date.now() - started.startedAt,
        ok: false,
        kind: error instanceof ApiRequestError ? error.kind : 'unknown',
        message: error instanceof Error ? error.message : String(error),
      };
    }
    if (!mounted.current) return;
    // The overlay's last change may not have rendered yet: take the run as recorded so far.
    const latest = current.current?.id === started.id ? current.current : started;
    const finished = { ...latest, end };
    if (current.current?.id === started.id) current.current = finished;
    setRun((shown) => (shown?.id === started.id ? finished : shown));
  };

  const errorRequest = (code: number) => playgroundRequests.error(code, { until: recover ? Date.now() + RECOVER_AFTER_MS : undefined, selector });
  const codes = catalogue.data?.codes ?? [];
  const failedCodes = codes.filter((c) => c.code !== LOGIN_CODE && !NO_ACCESS_CODES.some((n) => n.code === c.code));
  const values = {
    delay: formatNumber(OVERLAY.loadingDelayMs),
    limit: formatNumber(OVERLAY.retryLimit),
    timeout: formatNumber(OVERLAY.timeoutMs / 1000),
    max: formatNumber((catalogue.data?.holdMaxMs ?? REAL_HOLD_MS) / 1000),
    every: formatNumber((catalogue.data?.keepAliveEveryMs ?? KEEP_ALIVE_MS) / 1000),
  };

  const codeButton = (code: PlaygroundCode) => (
    <Button
      key={code.code}
      variant="secondary"
      size="sm"
      className="h-auto min-h-8 py-1.5"
      aria-label={t('test.code.label', { code: String(code.code), name: code.name, status: String(code.httpStatus) })}
      onClick={() => void trigger(t('test.code.label', { code: String(code.code), name: code.name, status: String(code.httpStatus) }), errorRequest(code.code))}
    >
      <span className="font-mono">{code.code}</span>{' '}
      <span className="font-normal text-surface-600 dark:text-surface-400">{t('test.code.status', { status: String(code.httpStatus) })}</span>
    </Button>
  );

  return (
    <div>
      <PageHeader title={t('title.test')} description={t('test.description')} />
      <div className="space-y-6">
        <Card className="p-5 text-sm text-surface-700 sm:p-6 dark:text-surface-300">
          <p>{t('test.intro')}</p>
          <p className="mt-2">{t('test.limits', { holds: formatNumber(catalogue.data?.holdsPerUser ?? HOLDS_PER_USER) })}</p>
          <fieldset className="mt-4 space-y-3">
            <legend className="text-sm font-semibold text-surface-900 dark:text-surface-50">{t('test.options.legend')}</legend>
            {(
              [
                ['cancel', offerCancel, setOfferCancel, t('test.options.cancel')],
                ['recover', recover, setRecover, t('test.options.recover', { seconds: formatNumber(RECOVER_AFTER_MS / 1000) })],
                ['selector', selector, setSelector, t('test.options.selector')],
              ] as const
            ).map(([key, checked, set, label]) => (
              <div key={key} className="flex items-start gap-2">
                <input id={`${ids}-${key}`} type="checkbox" className={checkbox} checked={checked} onChange={(e) => set(e.target.checked)} />
                <label htmlFor={`${ids}-${key}`}>{label}</label>
              </div>
            ))}
          </fieldset>
        </Card>

        <PlaygroundResult run={run} />

        <div className="grid gap-6 lg:grid-cols-2">
          <PlaygroundGroup name={t('test.state.loading.name')} what={t('test.state.loading.what', values)} how={t('test.state.loading.how', values)}>
            {SLOW_WAITS_MS.map((ms) => {
              const label = ms < 1000 ? t('test.slow.ms', { ms: formatNumber(ms) }) : t('test.slow.s', { seconds: formatNumber(ms / 1000) });
              return (
                <Button key={ms} variant="secondary" size="sm" onClick={() => void trigger(label, playgroundRequests.slow(ms))}>
                  {label}
                </Button>
              );
            })}
          </PlaygroundGroup>

          <PlaygroundGroup name={t('test.state.login.name')} what={t('test.state.login.what')} how={t('test.state.login.how')}>
            <Button variant="secondary" size="sm" onClick={() => void trigger(t('test.login.button'), errorRequest(LOGIN_CODE))}>
              {t('test.login.button')}
            </Button>
          </PlaygroundGroup>

          <PlaygroundGroup name={t('test.state.noAccess.name')} what={t('test.state.noAccess.what')} how={t('test.state.noAccess.how')}>
            {NO_ACCESS_CODES.map((code) => {
              const label = t('test.code.label', { code: String(code.code), name: code.name, status: String(code.httpStatus) });
              return (
                <Button key={code.code} variant="secondary" size="sm" aria-label={label} onClick={() => void trigger(label, errorRequest(code.code))}>
                  <span className="font-mono">{code.code}</span>{' '}
                  <span className="font-normal text-surface-600 dark:text-surface-400">{t('test.code.status', { status: String(code.httpStatus) })}</span>
                </Button>
              );
            })}
          </PlaygroundGroup>

          <PlaygroundGroup name={t('test.state.timeout.name')} what={t('test.state.timeout.what', values)} how={t('test.state.timeout.how', values)}>
            <Button variant="secondary" size="sm" onClick={() => void trigger(t('test.timeout.short', { seconds: formatNumber(SHORT_TIMEOUT_MS / 1000) }), playgroundRequests.shortTimeout())}>
              {t('test.timeout.short', { seconds: formatNumber(SHORT_TIMEOUT_MS / 1000) })}
            </Button>
            <Button variant="secondary" size="sm" onClick={() => void trigger(t('test.timeout.real', values), playgroundRequests.realTimeout())}>
              {t('test.timeout.real', values)}
            </Button>
          </PlaygroundGroup>

          <PlaygroundGroup name={t('test.state.network.name')} what={t('test.state.network.what')} how={t('test.state.network.how')}>
            <Button variant="secondary" size="sm" onClick={() => void trigger(t('test.network.button'), playgroundRequests.network())}>
              {t('test.network.button')}
            </Button>
          </PlaygroundGroup>
        </div>

        <Card className="p-5 sm:p-6">
          <section aria-labelledby={`${ids}-failed`}>
            <h2 id={`${ids}-failed`} className="text-base font-semibold text-surface-900 dark:text-surface-50">
              {t('test.state.failed.name')}
            </h2>
            <p className="mt-1 text-sm text-surface-700 dark:text-surface-300">{t('test.state.failed.what')}</p>
            <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{t('test.state.failed.how')}</p>
            <h3 className="mt-3 text-sm font-semibold text-surface-900 dark:text-surface-50">{t('test.state.retryLimit.name')}</h3>
            <p className="mt-0.5 text-sm text-surface-600 dark:text-surface-400">{t('test.state.retryLimit.what', values)}</p>
            {catalogue.data ? (
              <div className={cx('mt-4 grid gap-2', 'grid-cols-2 sm:grid-cols-3 lg:grid-cols-5')}>{failedCodes.map(codeButton)}</div>
            ) : catalogue.isError ? (
              <LoadFailed
                tone="warning"
                className="mt-4"
                title={t('test.codes.failed')}
                reason={failureText(catalogue.error)}
                retryLabel={t('test.codes.retry')}
                onRetry={() => void catalogue.refetch()}
              />
            ) : (
              <div className="mt-4" aria-busy="true">
                <span className="sr-only">{t('test.codes.loading')}</span>
                <Skeleton className="h-24" />
              </div>
            )}
          </section>
        </Card>
      </div>
    </div>
  );
}
