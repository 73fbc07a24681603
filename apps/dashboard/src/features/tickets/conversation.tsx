/**
 * One ticket's pane (header, form answers, conversation, actions, reply): its own chunk, fetched
 * when a ticket is opened (or a row of the queue is pointed at or focused), so the queue alone stays
 * light.
 */
import type { LiveMessage, TicketCommandRequest, TicketCommandView, TicketDetail, TicketLabel, TicketPerson, TicketStreamEvent, TranscriptUser } from '@tickety/api-contract';
import { formatRelative, Link, useNow } from '@tickety/shared';
import { Alert, Avatar, Button, cx, LoadFailed, } from '@tickety/ui';
import ArrowDown from 'lucide-react/icons/arrow-down';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import { type ReactNode, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { type DiscordNames, DiscordNamesContext } from '../../components/discord/markdown-view';
import { Message } from '../../components/discord/message';
import { type MessageLookup, startsGroup } from '../../components/discord/message-model';
import { DiscordSurface } from '../../components/discord/message-preview';
import { failedRead, failureText } from '../../lib/failures';
import { href } from '../../lib/hrefs';
import { useTicketCommandMutation } from './api';
import { CommandProgress, commandText, type SendFailure } from './command-status';
import { useT } from './i18n';
import { LabelChips } from './label-chip';
import { type Conversation, isPending } from './model';
import { PaneLoading } from './pane-loading';
import { AutoCloseBadge } from './auto-close-badge';
import { PersonName, usePersonName, useTicketName, WaitingBadge } from './queue';
import { ReplyBox, type ReplyDraft, type Restore } from './reply-box';
import { TicketActions } from './ticket-actions';
import type { TicketRead } from './use-conversation';

/** A reply sent from this page, shown in the conversation until its command is done (then the bot's message is there). */
interface PendingReply {
  key: number;
  draft: ReplyDraft;
  commandId: string | null;
  /** The request itself failed (never became a command). */
  error: string | null;
}

let pendingKey = 0;

function PendingBubble({ reply, command, onRetry, onEdit, onDismiss }: { reply: PendingReply; command: TicketCommandView | undefined; onRetry: () => void; onEdit: () => void; onDismiss: () => void }) {
  const t = useT();
  const failed = reply.error !== null || (command !== undefined && !isPending(command.state) && command.state !== 'done');
  return (
    <article aria-label={t('tickets.pending')} data-pending-reply="" className="px-4 py-2 opacity-90">
      <div className="ml-12 rounded-md border border-dashed border-(--d-embed-border) p-2">
        <p className="whitespace-pre-wrap break-words text-(--d-text)">{reply.draft.content}</p>
        <p role="status" className={cx('mt-1 text-xs', failed ? 'text-red-400' : 'text-(--d-muted)')}>
          {failed
            ? `${t('tickets.pending.failed')} ${reply.error ?? (command ? commandText(t, command) : '')}`
            : t('tickets.pending.sending')}
        </p>
        {failed ? (
          <div className="mt-2 flex flex-wrap gap-2">
            <Button size="sm" onClick={onRetry}>
              {t('tickets.pending.retry')}
            </Button>
            <Button size="sm" variant="secondary" onClick={onEdit}>
              {t('tickets.pending.edit')}
            </Button>
            <Button size="sm" variant="ghost" onClick={onDismiss}>
              {t('tickets.pending.dismiss')}
            </Button>
          </div>
        ) : null}
      </div>
    </article>
  );
}

/** Whether the list is scrolled to (nearly) its end. */
function atBottom(element: HTMLElement): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight < 48;
}

/**
 * The messages, Discord-like; follows new ones while the reader is at the end, else offers a "new
 * messages" pill. Mentions are named by `people` (the read's users, the ticket's opener and claimer)
 * and the messages' authors; anyone else shows as the transcript viewer shows an unknown user.
 */
function Messages({ messages, people, dark, children }: { messages: readonly LiveMessage[]; people: ReadonlyMap<string, TicketPerson>; dark: boolean; children?: ReactNode }) {
  const t = useT();
  const personName = usePersonName();
  const list = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const seen = useRef(messages.length);
  const [unseen, setUnseen] = useState(0);
  const users = useMemo(() => new Map<string, TranscriptUser>(messages.map((item) => [item.author.id, item.author])), [messages]);
  const plain = useMemo(() => messages.map((item) => item.message), [messages]);
  const byId = useMemo<MessageLookup>(() => {
    const map = new Map(plain.map((message) => [message.id, message]));
    return { get: (id) => map.get(id) };
  }, [plain]);
  const names = useMemo<DiscordNames>(
    () => ({
      loaded: false,
      roles: new Map(),
      channels: new Map(),
      emojiUrl: () => '',
      users: new Map([...[...people.values()].map((person) => [person.id, personName(person)] as const), ...[...users.values()].map((user) => [user.id, user.displayName ?? user.username] as const)]),
    }),
    [users, people, personName],
  );

  const toEnd = useCallback(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
    following.current = true;
    setUnseen(0);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when messages arrive (or a pending reply shows)
  useLayoutEffect(() => {
    const added = messages.length - seen.current;
    seen.current = messages.length;
    if (following.current) toEnd();
    else if (added > 0) setUnseen((count) => count + added);
  }, [messages, children, toEnd]);

  return (
    <div className="relative">
      <DiscordNamesContext.Provider value={names}>
        <DiscordSurface theme={dark ? 'dark' : 'light'}>
          <div
            ref={list}
            role="log"
            aria-label={t('tickets.conversation')}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the log scrolls; keyboard users scroll it with the arrow keys
            tabIndex={0}
            onScroll={(event) => {
              following.current = atBottom(event.currentTarget);
              if (following.current) setUnseen(0);
            }}
            className="max-h-[60vh] min-h-48 overflow-y-auto py-2 outline-none focus-visible:ring-2 focus-visible:ring-primary-500 lg:max-h-[calc(100vh-24rem)]"
          >
            {messages.map((item, index) => (
              <Message key={item.message.id} message={item.message} grouped={!startsGroup(plain, index)} users={users} byId={byId} deleted={item.deleted} />
            ))}
            {children}
          </div>
        </DiscordSurface>
      </DiscordNamesContext.Provider>
      {unseen > 0 ? (
        <button
          type="button"
          onClick={toEnd}
          className="absolute bottom-3 left-1/2 flex -translate-x-1/2 items-center gap-1 rounded-full bg-primary-600 px-3 py-1 text-sm font-medium text-white shadow-lg hover:bg-primary-700"
        >
          <ArrowDown aria-hidden="true" className="size-4" />
          {t('tickets.newMessages', { count: unseen })}
        </button>
      ) : null}
    </div>
  );
}

interface TicketPaneProps {
  server: string;
  conversation: Conversation | null;
  detail: TicketRead;
  apply: (event: TicketStreamEvent) => void;
  labels: readonly TicketLabel[];
  canWrite: boolean;
  dark: boolean;
  backTo: string;
}

/** One ticket: its header, form answers, live conversation, actions with their progress, and the reply box. */
export default function TicketPane({ server, conversation, detail, apply, labels, canWrite, dark, backTo }: TicketPaneProps) {
  const t = useT();
  const name = useTicketName();
  const personName = usePersonName();
  const now = useNow(30_000);
  const [send] = useTicketCommandMutation();
  const [mine, setMine] = useState<string[]>([]);
  const [failures, setFailures] = useState<SendFailure[]>([]);
  const [pending, setPending] = useState<PendingReply[]>([]);
  const [restore, setRestore] = useState<Restore | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const ticketId = conversation?.ticket.id;

  // A ticket opened from the queue: its heading takes focus (a screen reader hears which one).
  useEffect(() => {
    if (ticketId) heading.current?.focus();
  }, [ticketId]);

  const command = useCallback(
    async (request: TicketCommandRequest): Promise<{ id: string } | { error: string }> => {
      if (!ticketId) return { error: '' };
      const answer = await send({ server, ticket: ticketId, command: request });
      if ('error' in answer) return { error: failureText(answer.error) };
      apply({ type: 'commands', commands: [answer.data] });
      return { id: answer.data.id };
    },
    [send, server, ticketId, apply],
  );

  const act = async (request: TicketCommandRequest) => {
    const result = await command(request);
    if ('error' in result) setFailures((list) => [...list.filter((item) => item.kind !== request.kind), { kind: request.kind, reason: result.error }]);
    else {
      setFailures((list) => list.filter((item) => item.kind !== request.kind));
      setMine((list) => [...list, result.id]);
    }
  };

  const reply = async (draft: ReplyDraft, key = ++pendingKey) => {
    setPending((list) => [...list.filter((item) => item.key !== key), { key, draft, commandId: null, error: null }]);
    const result = await command({ kind: 'reply', content: draft.content, attachmentIds: draft.attachmentIds, ...(draft.tagId ? { tagId: draft.tagId } : {}) });
    setPending((list) => list.map((item) => (item.key === key ? { ...item, commandId: 'id' in result ? result.id : null, error: 'error' in result ? result.error : null } : item)));
  };

  if (!conversation) {
    if (detail.isError) return <LoadFailed title={t('tickets.ticket.loadFailed')} {...failedRead(t, detail.error)} onRetry={() => void detail.refetch()} />;
    return <PaneLoading />;
  }

  const { ticket, closed, messages, commands, users } = conversation;
  const byId = new Map(commands.map((item) => [item.id, item]));
  const myCommands = mine.map((id) => byId.get(id)).filter((item): item is TicketCommandView => item !== undefined && item.kind !== 'reply');
  // The latest of each kind.
  const latest = [...new Map(myCommands.map((item) => [item.kind, item])).values()];
  const busyKinds = new Set(myCommands.filter((item) => isPending(item.state)).map((item) => item.kind));
  const shownPending = pending.filter((item) => byId.get(item.commandId ?? '')?.state !== 'done');
  const data = detail.currentData as TicketDetail | undefined;

  return (
    <section aria-labelledby="ticket-heading" className="min-w-0 space-y-4">
      <Link to={backTo} className="inline-flex items-center gap-1 text-sm text-primary-700 hover:underline lg:hidden dark:text-primary-300">
        <ArrowLeft aria-hidden="true" className="size-4" />
        {t('tickets.back')}
      </Link>
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="ticket-heading" ref={heading} tabIndex={-1} className="text-xl font-semibold text-surface-900 outline-none dark:text-surface-50">
            {t('tickets.ticket.title', { number: name(ticket) })}
          </h2>
          <span className="text-sm text-surface-600 dark:text-surface-400">{ticket.panelName ?? t('tickets.noPanel')}</span>
          <WaitingBadge ticket={ticket} now={now} />
          <AutoCloseBadge ticket={ticket} now={now} />
        </div>
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-surface-500 dark:text-surface-400">{t('tickets.openedBy')}</dt>
          <dd className="flex items-center gap-2">
            <Avatar src={ticket.opener.avatarUrl} name={personName(ticket.opener)} size="xs" />
            <PersonName person={ticket.opener} showId className="font-medium text-surface-900 dark:text-surface-100" />
            <time dateTime={ticket.openedAt} className="text-surface-500 dark:text-surface-400">
              {t('tickets.opened', { when: formatRelative(ticket.openedAt, now, { precision: 'minutes' }) })}
            </time>
          </dd>
          <dt className="text-surface-500 dark:text-surface-400">{t('tickets.claimer')}</dt>
          <dd>{ticket.claimer ? <PersonName person={ticket.claimer} showId /> : t('tickets.unclaimed')}</dd>
          <dt className="text-surface-500 dark:text-surface-400">{t('tickets.labels')}</dt>
          <dd>{ticket.labels.length ? <LabelChips ids={ticket.labels} labels={labels} /> : '—'}</dd>
        </dl>
      </header>

      {closed ? (
        <Alert tone="neutral" title={t('tickets.closed.title')}>
          {t('tickets.closed.body')}{' '}
          <Link to={href('/dashboard/:server/logs-web/transcripts', { server })} className="font-medium underline">
            {t('tickets.closed.link')}
          </Link>
        </Alert>
      ) : canWrite ? (
        <TicketActions ticket={ticket} labels={labels} pending={busyKinds} onCommand={(request) => void act(request)} />
      ) : null}
      {canWrite ? <CommandProgress commands={latest} failures={failures} /> : null}

      {data && data.answers.length > 0 ? (
        <section aria-labelledby="ticket-answers" className="rounded-xl border border-surface-200 bg-white p-4 dark:border-surface-800 dark:bg-surface-900">
          <h3 id="ticket-answers" className="mb-2 text-sm font-semibold text-surface-900 dark:text-surface-50">
            {t('tickets.answers')}
          </h3>
          <dl className="space-y-2 text-sm">
            {data.answers.map((answer, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the answers have no id; their order is fixed
              <div key={index}>
                <dt className="font-medium text-surface-700 dark:text-surface-300">{answer.question}</dt>
                <dd className="whitespace-pre-wrap break-words text-surface-900 dark:text-surface-100">{answer.answer}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}

      {data?.truncated ? <p className="text-xs text-surface-500 dark:text-surface-400">{t('tickets.truncated')}</p> : null}
      <Messages messages={messages} people={users} dark={dark}>
        {shownPending.map((item) => (
          <PendingBubble
            key={item.key}
            reply={item}
            command={byId.get(item.commandId ?? '')}
            onRetry={() => void reply(item.draft, item.key)}
            onEdit={() => {
              setPending((list) => list.filter((other) => other.key !== item.key));
              setRestore({ key: item.key, content: item.draft.content });
            }}
            onDismiss={() => setPending((list) => list.filter((other) => other.key !== item.key))}
          />
        ))}
      </Messages>

      {canWrite && !closed ? <ReplyBox server={server} ticket={ticket.id} dark={dark} restore={restore} onSend={(draft) => void reply(draft)} /> : null}
      {canWrite && closed ? <p className="text-sm text-surface-600 dark:text-surface-400">{t('tickets.reply.closed')}</p> : null}
    </section>
  );
}
