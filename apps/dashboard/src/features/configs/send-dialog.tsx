/**
 * Sending a panel or multi-panel to a channel: a searchable picker of the server's text channels
 * (those the bot cannot post in say what it lacks and cannot be chosen), the list read again from
 * Discord on request, and the bot's answer (Discord's refusals in words). Its own chunk, fetched
 * when Send is pressed.
 */

import type { PostKind } from '@tickety/api-contract';
import { Alert, Button, ConfirmDialog } from '@tickety/ui';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import { useMemo, useState } from 'react';
import { failureDetail, failureText, type RequestFailure } from '../../lib/failures';
import { useT } from './i18n';
import { useRefreshServerResourcesMutation, useSendPanelMutation, useServerResourcesQuery } from './api';
import { ChannelPicker, channelLabel, ResourcesContext, type ResourcesState } from './pickers';

interface SendDialogProps {
  server: string;
  kind: PostKind;
  id: string;
  name: string;
  /** The saved version the bot will post. */
  version: number;
  /** Where it is posted now (a send posts anew; that message stays). */
  postedIn: string | null;
  onClose(): void;
  onSent(text: string): void;
}

export default function SendDialog({ server, kind, id, name, version, postedIn, onClose, onSent }: SendDialogProps) {
  const t = useT();
  const query = useServerResourcesQuery(server);
  const [refresh, refreshing] = useRefreshServerResourcesMutation();
  const [send, sending] = useSendPanelMutation();
  const [channelId, setChannelId] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const resources = useMemo<ResourcesState>(
    () => ({ data: query.data, loading: query.data === undefined && !query.isError, error: query.error, retry: () => void query.refetch() }),
    [query.data, query.isError, query.error, query.refetch],
  );
  const channel = query.data?.channels.find((c) => c.id === channelId);
  const detail = error ? failureDetail(error) : null;

  return (
    <ConfirmDialog
      open
      tone="primary"
      title={t('send.title', { name })}
      confirmLabel={t('send.confirm')}
      cancelLabel={t('common.cancel')}
      confirmDisabled={!channel?.botCanPost}
      busy={sending.isLoading}
      onCancel={onClose}
      onConfirm={async () => {
        if (!channel) return;
        setError(null);
        try {
          await send({ server, kind, id, channelId: channel.id }).unwrap();
          onSent(t('send.done', { name, channel: channelLabel(channel) }));
        } catch (failure) {
          setError(failure as RequestFailure);
          // What Discord said about the bot's permissions may have changed: show the list as it is now.
          if ((failure as RequestFailure).data?.code === 1014) void refresh(server);
        }
      }}
    >
      <p>{t('send.body', { version })}</p>
      {postedIn ? <p>{t('send.again', { channel: postedIn })}</p> : null}
      <ResourcesContext.Provider value={resources}>
        <ChannelPicker path="send.channel" kind="text" requirePost label={t('send.channel')} value={channelId} onChange={setChannelId} emptyText={t('send.noChannel')} />
      </ResourcesContext.Provider>
      <Button size="sm" variant="ghost" loading={refreshing.isLoading} onClick={() => void refresh(server)}>
        {refreshing.isLoading ? null : <RefreshCw aria-hidden="true" className="size-3.5" />}
        {t('send.refresh')}
      </Button>
      {error ? (
        <Alert tone="danger" title={t('send.failed')}>
          <p>{failureText(error)}</p>
          {detail ? <p className="mt-1">{detail}</p> : null}
        </Alert>
      ) : null}
    </ConfirmDialog>
  );
}
