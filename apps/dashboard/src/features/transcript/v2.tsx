import { useVirtualizer } from '@tanstack/react-virtual';
import type { TranscriptV2 } from '@tickety/api-contract';
import { formatDateTime, formatNumber, useParams } from '@tickety/shared';
import { Alert, Button, cx, inputClasses, Skeleton } from '@tickety/ui';
import ChevronDown from 'lucide-react/icons/chevron-down';
import ChevronUp from 'lucide-react/icons/chevron-up';
import Download from 'lucide-react/icons/download';
import FileText from 'lucide-react/icons/file-text';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { type DiscordNames, DiscordNamesContext } from '../../components/discord/markdown-view';
import { DiscordSurface } from '../../components/discord/message-preview';
import { downloadText } from '../../lib/csv';
import { failureText } from '../../lib/failures';
import { useT } from './i18n';
import { saveBlob } from '../../lib/save-file';
import { readTranscript, readTranscriptHead, transcriptPath } from './api';
import { Message, type Users } from '../../components/discord/message';
import { startsGroup } from '../../components/discord/message-model';
import { buildIndex, highlightMatches, MessageIndex, search } from './v2/model';

/**
 * A transcript stored by this service (/transcript/v2/:server/:fileid), rendered like Discord from
 * its JSON (only the service's own file copies load). Long transcripts are virtualised and come in
 * two reads: the head is painted at once, the whole transcript follows (search and downloads wait
 * for it). In-page search, `#m-<id>` jumps, downloads as HTML and JSON. The API decides who may
 * read it; a refusal is the request client's no-access screen.
 */
export default function TranscriptV2Page() {
  const t = useT();
  const { server = '', fileid = '' } = useParams();
  const [transcript, setTranscript] = useState<TranscriptV2 | null>(null);
  const [error, setError] = useState<unknown>(null);
  // The number of messages in all (from the head), and whether the whole transcript is here.
  const [total, setTotal] = useState(0);
  const [complete, setComplete] = useState(false);
  const [restError, setRestError] = useState<unknown>(null);
  const [restAttempt, setRestAttempt] = useState(0);
  const [query, setQuery] = useState('');
  const [at, setAt] = useState(0);
  const [fileProgress, setFileProgress] = useState<number | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const fileAbort = useRef<AbortController | null>(null);
  useEffect(() => () => fileAbort.current?.abort(), []);
  const scroller = useRef<HTMLElement>(null);

  const path = transcriptPath(server, fileid);
  useEffect(() => {
    let live = true;
    setTranscript(null);
    setComplete(false);
    setError(null);
    readTranscriptHead(path)
      .then((head) => {
        if (!live) return;
        setTotal(head.totalMessages);
        setTranscript(head);
        if (head.messages.length >= head.totalMessages) setComplete(true);
      })
      .catch((e: unknown) => live && setError(e));
    return () => {
      live = false;
    };
  }, [path]);
  // The whole transcript, once the head's rows are painted (its inflating and parsing never delay them).
  const headShown = transcript !== null && !complete;
  // biome-ignore lint/correctness/useExhaustiveDependencies: restAttempt asks again after a failure
  useEffect(() => {
    if (!headShown) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setRestError(null);
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        readTranscript(path)
          .then((whole) => {
            if (!live) return;
            setTranscript(whole);
            setComplete(true);
          })
          .catch((e: unknown) => live && setRestError(e));
      }, 0);
    });
    return () => {
      live = false;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [headShown, path, restAttempt]);

  const messages = transcript?.messages ?? [];
  const users = useMemo<Users>(() => new Map((transcript?.users ?? []).map((u) => [u.id, u])), [transcript]);
  const byId = useMemo(() => new MessageIndex(messages), [messages]);
  const names = useMemo<DiscordNames>(
    () => ({
      loaded: transcript !== null,
      roles: new Map((transcript?.roles ?? []).map((r) => [r.id, { name: r.name, color: r.colour ?? 0 }])),
      channels: new Map((transcript?.channels ?? []).map((c) => [c.id, { name: c.name }])),
      users: new Map((transcript?.users ?? []).map((u) => [u.id, u.displayName ?? u.username])),
      emojiUrl: () => '',
    }),
    [transcript],
  );
  // The search index (50,000 lower-cased texts for the longest tickets) is built after the first
  // paint, when the browser is idle, or at once when a search comes first.
  const index = useRef<{ of: TranscriptV2; texts: string[] } | null>(null);
  const indexOf = (of: TranscriptV2) => {
    if (index.current?.of !== of) index.current = { of, texts: buildIndex(of) };
    return index.current.texts;
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per loaded transcript
  useEffect(() => {
    if (!transcript) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        byId.build();
        indexOf(transcript);
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [transcript]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: indexOf reads a ref keyed by the transcript
  const hits = useMemo(() => (transcript && query.trim() ? search(indexOf(transcript), query) : []), [transcript, query]);
  const hitSet = useMemo(() => new Set(hits), [hits]);
  const virtual = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 56,
    overscan: 8,
    // Until the box is measured (and where nothing measures, as in tests): a screenful.
    initialRect: { width: 800, height: 800 },
  });

  const jumpTo = (index: number) => virtual.scrollToIndex(index, { align: 'center' });
  const jumpToId = (id: string) => {
    const index = byId.indexOf(id);
    if (index >= 0) jumpTo(index);
  };
  // #m-<id> in the address: jump there once the transcript is in.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per loaded transcript
  useEffect(() => {
    const id = location.hash.startsWith('#m-') ? location.hash.slice(3) : null;
    if (id && transcript) jumpToId(id);
  }, [transcript]);
  // The matched words themselves, in the rows on screen (the CSS Custom Highlight API: no change to the DOM React owns).
  useLayoutEffect(() => highlightMatches(scroller.current, query));
  const go = (step: number) => {
    if (hits.length === 0) return;
    const next = (at + step + hits.length) % hits.length;
    setAt(next);
    jumpTo(hits[next]!);
  };

  if (error) return <Alert tone="danger" title={t('transcript.v2.loadFailed')}>{failureText(error)}</Alert>;
  if (!transcript) {
    return (
      <div role="status" aria-label={t('transcript.v2.loading')} className="mx-auto w-full max-w-5xl space-y-3">
        <Skeleton className="h-10 w-1/2" />
        <Skeleton className="h-[60vh]" />
      </div>
    );
  }
  const header = <TranscriptHeader transcript={transcript} users={users} total={Math.max(total, transcript.messages.length)} />;
  const download = async () => {
    const abort = new AbortController();
    fileAbort.current = abort;
    setFileProgress(0);
    try {
      byId.build();
      const { standaloneHtml } = await import('./v2/standalone');
      const blob = await standaloneHtml({ transcript, names, users, byId, header }, setFileProgress, abort.signal);
      saveBlob(`transcript-${transcript.server.id}-${fileid}.html`, blob);
      setFileError(null);
    } catch (error) {
      if (!abort.signal.aborted) setFileError(error instanceof Error ? error.message : String(error));
    } finally {
      if (!abort.signal.aborted) setFileProgress(null);
    }
  };
  return (
    <div className="mx-auto w-full max-w-5xl">
      <div className="flex flex-wrap items-start justify-end gap-2">
        <Button variant="secondary" size="sm" disabled={!complete || fileProgress !== null} onClick={() => void download()}>
          <Download aria-hidden="true" className="size-4" />
          {fileProgress === null ? t('transcript.v2.downloadHtml') : t('transcript.v2.preparing', { percent: Math.round(fileProgress * 100) })}
        </Button>
        <Button variant="secondary" size="sm" disabled={!complete} onClick={() => downloadText(`transcript-${transcript.server.id}-${fileid}.json`, JSON.stringify(transcript, null, 2), 'application/json')}>
          <Download aria-hidden="true" className="size-4" />
          {t('transcript.v2.downloadJson')}
        </Button>
      </div>
      {fileProgress !== null ? <progress className="mt-2 h-1 w-full accent-primary-600" value={fileProgress} max={1} aria-label={t('transcript.v2.preparingLabel')} /> : null}
      {fileError ? (
        <Alert tone="danger" title={t('transcript.v2.fileFailed')} className="mt-2">
          {fileError}
        </Alert>
      ) : null}
      {header}
      <form
        className="mt-4 flex flex-wrap items-center gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          go(1);
        }}
      >
        <label htmlFor="transcript-search" className="sr-only">
          {t('transcript.v2.search')}
        </label>
        <input
          id="transcript-search"
          type="search"
          className={cx(inputClasses, 'max-w-xs')}
          placeholder={complete ? t('transcript.v2.search') : t('transcript.v2.searchWaits')}
          disabled={!complete}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setAt(-1);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && event.shiftKey) {
              event.preventDefault();
              go(-1);
            }
          }}
        />
        <span role="status" className="text-sm text-surface-600 dark:text-surface-400">
          {query.trim() ? (hits.length ? t('transcript.v2.matchOf', { at: Math.max(at, 0) + 1, total: hits.length }) : t('transcript.v2.noMatch')) : ''}
        </span>
        <Button variant="ghost" size="sm" aria-label={t('transcript.v2.previous')} disabled={!hits.length} onClick={() => go(-1)}>
          <ChevronUp aria-hidden="true" className="size-4" />
        </Button>
        <Button variant="ghost" size="sm" aria-label={t('transcript.v2.next')} disabled={!hits.length} onClick={() => go(1)}>
          <ChevronDown aria-hidden="true" className="size-4" />
        </Button>
      </form>
      {complete ? null : restError ? (
        <Alert
          tone="danger"
          title={t('transcript.v2.restFailed')}
          className="mt-3"
          actions={
            <Button variant="secondary" size="sm" onClick={() => setRestAttempt((n) => n + 1)}>
              {t('common.retry')}
            </Button>
          }
        >
          {failureText(restError)}
        </Alert>
      ) : (
        <p role="status" className="mt-2 flex items-center gap-2 text-sm text-surface-600 dark:text-surface-400">
          <span aria-hidden="true" className="size-3 animate-spin rounded-full border-2 border-current border-t-transparent motion-reduce:animate-none" />
          {t('transcript.v2.loadingRest', { count: Math.max(total - messages.length, 0) })}
        </p>
      )}
      <DiscordNamesContext.Provider value={names}>
        <DiscordSurface theme="dark" className="mt-4">
          <section ref={scroller} className="h-[70vh] overflow-auto" aria-label={t('transcript.v2.conversation')}>
            <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
              {virtual.getVirtualItems().map((row) => (
                <div key={row.key} data-index={row.index} ref={virtual.measureElement} style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${row.start}px)` }}>
                  <Message
                    message={messages[row.index]!}
                    grouped={!startsGroup(messages, row.index)}
                    users={users}
                    byId={byId}
                    hit={hitSet.has(row.index)}
                    current={at >= 0 && hits[at] === row.index}
                    onJump={jumpToId}
                  />
                </div>
              ))}
            </div>
          </section>
        </DiscordSurface>
      </DiscordNamesContext.Provider>
    </div>
  );
}

/** The ticket's heading and facts: on the page and at the top of the downloaded file. */
function TranscriptHeader({ transcript, users, total }: { transcript: TranscriptV2; users: Users; total: number }) {
  const t = useT();
  const opener = users.get(transcript.ticket.openerId);
  const closer = transcript.ticket.closedBy ? users.get(transcript.ticket.closedBy) : undefined;
  const nameOf = (u: typeof opener, id: string | null) => u?.displayName ?? u?.username ?? id ?? '—';
  return (
    <>
      <div className="flex items-start gap-3 border-b border-surface-200 pb-4 dark:border-surface-800">
        <FileText aria-hidden="true" className="mt-1 size-6 shrink-0 text-primary-600 dark:text-primary-400" />
        <div className="min-w-0 flex-1">
          <p className="text-xs font-medium tracking-wide text-surface-500 uppercase dark:text-surface-400">{t('transcript.frame.kicker', { version: 'v2' })} · {transcript.server.name}</p>
          <h1 className="text-xl font-bold break-all text-surface-900 sm:text-2xl dark:text-surface-50">{t('transcript.v2.heading', { number: transcript.ticket.number, channel: transcript.channel.name })}</h1>
        </div>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-3 text-sm lg:grid-cols-4">
        {[
          [t('transcript.v2.opener'), nameOf(opener, transcript.ticket.openerId)],
          [t('transcript.v2.opened'), formatDateTime(transcript.ticket.openedAt)],
          [t('transcript.v2.closed'), `${formatDateTime(transcript.ticket.closedAt)} · ${nameOf(closer, transcript.ticket.closedBy)}`],
          [t('transcript.v2.messages'), `${formatNumber(total)}${transcript.ticket.reason ? ` · ${transcript.ticket.reason}` : ''}`],
        ].map(([k, v]) => (
          <div key={k} className="min-w-0">
            <dt className="text-surface-500 dark:text-surface-400">{k}</dt>
            <dd className="font-medium break-words text-surface-900 dark:text-surface-100">{v}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}
