import { errorText, formatDateTime, formatRelative, loadUser, type RefreshGuildsError, refreshGuilds, useAppDispatch, useAppSelector, useNow } from '@tickety/shared';
import { Button, cx } from '@tickety/ui';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import { useId, useState } from 'react';
import { Message, useT } from './i18n';

/** The API allows one guild refresh per user every 10 s; used when a 1003 answer gives no Retry-After. */
const DEFAULT_WAIT_SECONDS = 10;

/** Within this many seconds the label says "just now" (as `formatRelative` with minute precision). */

interface Failure {
  code: number;
  /** The API's message; null when the request failed without one (the catalogue's `refresh.failed` is shown). */
  message: string | null;
  /** Until when (ms since the epoch) the button stays disabled; null when there is nothing to wait for. */
  until: number | null;
  /** The wait in seconds when the failure arrived (announced once). */
  seconds: number;
}

function failureFrom(error: RefreshGuildsError | undefined, now: number): Failure {
  if (!error) return { code: 0, message: null, until: null, seconds: 0 };
  const wait = error.code === 1003 ? (error.retryAfter ?? DEFAULT_WAIT_SECONDS) : error.retryAfter;
  return { code: error.code, message: error.message ? errorText(error) : null, until: wait !== null && wait > 0 ? now + wait * 1000 : null, seconds: wait ?? 0 };
}

/**
 * "Updated x minutes ago" and the Refresh button (POST /api/auth/guilds/refresh, no overlay). The API
 * allows one refresh per 10 s: its 1003 answer is shown next to the button with a countdown, and the
 * button stays disabled until then. Other failures are shown here too, never as a blocking overlay.
 */
export function RefreshControl({ align = 'end', className }: { align?: 'start' | 'end'; className?: string }) {
  const t = useT();
  const dispatch = useAppDispatch();
  const refreshedAt = useAppSelector((s) => s.auth.guildsRefreshedAt);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  /** The number of manageable servers after a successful refresh (null: nothing to announce). */
  const [success, setSuccess] = useState<number | null>(null);
  const now = useNow(failure?.until ? 1000 : 30_000);
  const messageId = useId();

  const secondsLeft = failure?.until ? Math.max(0, Math.ceil((failure.until - now) / 1000)) : 0;
  const waiting = secondsLeft > 0;
  // A rate-limit message has nothing left to say once the wait is over.
  const shown = failure && !(failure.code === 1003 && !waiting) ? failure : null;

  async function refresh() {
    setPending(true);
    setFailure(null);
    setSuccess(null);
    const result = await dispatch(refreshGuilds());
    setPending(false);
    if (refreshGuilds.fulfilled.match(result)) {
      setSuccess(result.payload.guilds.filter((g) => g.canManage || g.roleAccess === true).length);
      return;
    }
    const error = refreshGuilds.rejected.match(result) ? result.payload : undefined;
    setFailure(failureFrom(error, Date.now()));
    // The session ended on the server (Discord grant revoked): reload the user so the shell asks to log in again.
    if (error?.code === 401) void dispatch(loadUser({ force: true }));
  }

  const refreshedTime = refreshedAt ? Date.parse(refreshedAt) : Number.NaN;
  const shownNow = Math.max(now, refreshedTime);
  const ago = formatRelative(refreshedTime, shownNow, { precision: 'minutes' });

  return (
    <div className={cx('flex flex-col gap-2', align === 'end' ? 'sm:items-end' : 'items-start', className)}>
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-sm text-surface-600 dark:text-surface-400">
          {Number.isNaN(refreshedTime) ? (
            t('refresh.notYet')
          ) : (
            <Message k="refresh.updated" values={{ when: ago }} components={{ time: <time dateTime={refreshedAt ?? undefined} title={formatDateTime(refreshedTime)} /> }} />
          )}
        </p>
        <Button variant="secondary" loading={pending} disabled={waiting} onClick={() => void refresh()} aria-describedby={shown?.code === 1003 ? messageId : undefined}>
          {pending ? null : <RefreshCw aria-hidden="true" className="size-4" />}
          {t('refresh.button')}
        </Button>
      </div>
      {shown?.code === 1003 ? (
        // The countdown is visual; the live region below announces the wait once, not every second.
        <p id={messageId} aria-hidden="true" className="max-w-sm text-sm text-amber-700 dark:text-amber-300">
          <Message k="refresh.rateLimited" values={{ count: secondsLeft }} components={{ num: <span className="font-semibold tabular-nums" /> }} />
        </p>
      ) : null}
      <div role="status" className="text-sm empty:hidden">
        {shown?.code === 1003 ? (
          <span className="sr-only">
            <Message k="refresh.rateLimited" values={{ count: shown.seconds }} />
          </span>
        ) : shown ? (
          <p className="max-w-sm text-red-700 dark:text-red-300">
            {shown.message ?? t('refresh.failed')}
            {waiting ? ` ${t('refresh.tryAgainIn', { count: secondsLeft })}` : null}
          </p>
        ) : success !== null ? (
          <p className="text-primary-700 dark:text-primary-300">{t('refresh.success', { count: success })}</p>
        ) : null}
      </div>
    </div>
  );
}
