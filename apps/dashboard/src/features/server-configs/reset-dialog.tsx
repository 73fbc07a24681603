import type { ResetConfigAnswer } from '@tickety/api-contract';
import { ConfirmDialog, TextField } from '@tickety/ui';
import { useState } from 'react';
import { failureCode, failureText } from '../../lib/failures';
import { useT } from './i18n';
import { useResetConfigMutation } from './api';

export interface ResetDialogProps {
  server: string;
  serverName: string;
  /** The live version the reset starts from (a newer one saved meanwhile: 1013). */
  version: number;
  onReset: (answer: ResetConfigAnswer, from: number) => void;
  onClose: () => void;
  /** A newer version was saved meanwhile: the page reads the live one again. */
  onConflict: () => void;
}

/** Whether what was typed is the server's name (trimmed, case-sensitive, as the API compares). */
export function confirmsName(typed: string, serverName: string): boolean {
  return typed.trim() !== '' && typed.trim() === serverName.trim();
}

/**
 * The confirmation of "Reset to defaults" (loaded when opened): what happens (a new version, the
 * current one restorable, posted panels needing an update), and the server's name typed to confirm;
 * the reset button stays off until it matches.
 */
export function ResetDialog({ server, serverName, version, onReset, onClose, onConflict }: ResetDialogProps) {
  const t = useT();
  const [typed, setTyped] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [reset, resetting] = useResetConfigMutation();
  const matches = confirmsName(typed, serverName);

  const doReset = async () => {
    if (!matches || resetting.isLoading) return;
    setFailure(null);
    try {
      const answer = await reset({ server, expectedVersion: version, confirmName: typed }).unwrap();
      onReset(answer, version);
    } catch (error) {
      if (failureCode(error) === 1013) onConflict();
      setFailure(failureText(error));
    }
  };

  return (
    <ConfirmDialog
      open
      alert
      title={t('restore.reset.dialog.title', { server: serverName })}
      confirmLabel={failure ? t('restore.reset.dialog.retry') : t('restore.reset.dialog.action')}
      cancelLabel={t('common.cancel')}
      tone="danger"
      busy={resetting.isLoading}
      confirmDisabled={!matches}
      failure={failure ? { title: t('restore.reset.failed'), reason: failure } : null}
      onConfirm={() => void doReset()}
      onCancel={onClose}
      extra={
        <TextField
          label={t('restore.reset.dialog.nameLabel')}
          hint={t('restore.reset.dialog.nameHint', { server: serverName })}
          value={typed}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              void doReset();
            }
          }}
        />
      }
    >
      <p>{t('restore.reset.dialog.body', { current: version, next: version + 1 })}</p>
      <p>{t('restore.reset.dialog.what')}</p>
      <p>{t('restore.reset.dialog.posts')}</p>
    </ConfirmDialog>
  );
}
