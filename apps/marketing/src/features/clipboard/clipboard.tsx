import { usePrerendering, useSearchParams } from '@tickety/shared';
import { Button, cx, inputClasses } from '@tickety/ui';
import ClipboardCheck from 'lucide-react/icons/clipboard-check';
import ClipboardX from 'lucide-react/icons/clipboard-x';
import Copy from 'lucide-react/icons/copy';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../lib/i18n';

type CopyState = 'copying' | 'copied' | 'refused';

/** Copies with the Clipboard API, then with the older selection command (works in more frames). */
async function copyText(text: string, field: HTMLInputElement | HTMLTextAreaElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no user gesture, or the frame lacks clipboard-write): try the selection next.
  }
  if (!field) return false;
  field.focus();
  field.select();
  try {
    return typeof document.execCommand === 'function' && document.execCommand('copy');
  } catch {
    return false;
  }
}

function isMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/i.test(navigator.platform || navigator.userAgent);
}

/**
 * `/clipboard?text=…`: the bot links here for long ids. Copies on load; browsers may refuse without a
 * click, so there is a button, and the text stays selected in a read-only field to copy by hand.
 */
export default function ClipboardPage() {
  const [params] = useSearchParams();
  const prerendering = usePrerendering();
  const t = useT();
  const text = params.get('text') ?? '';
  const [state, setState] = useState<CopyState>('copying');
  const fieldRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const fieldId = useId();
  const multiline = text.includes('\n') || text.length > 80;

  const copy = useCallback(async () => {
    setState('copying');
    const ok = await copyText(text, fieldRef.current);
    setState(ok ? 'copied' : 'refused');
    if (!ok) {
      fieldRef.current?.focus();
      fieldRef.current?.select();
    }
  }, [text]);

  useEffect(() => {
    if (text.trim() !== '') void copy();
  }, [text, copy]);

  // The server renders this page once for every address, without its query: the text is not known
  // there. A busy page (aria-busy) makes the boot script start the app at once, which renders the
  // text and copies it; without JavaScript, the page says what it needs.
  if (prerendering) {
    return (
      <div className="mx-auto max-w-lg py-4">
        <div role="status" aria-busy="true" className="flex items-start gap-3">
          <Copy aria-hidden="true" className="mt-1 size-7 shrink-0 text-surface-500" />
          <div className="min-w-0">
            <h1 className="text-xl font-bold text-surface-900 dark:text-surface-50">{t('clipboard.copying.title')}</h1>
            <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">{t('clipboard.copying.text')}</p>
          </div>
        </div>
        <noscript>
          <p className="mt-4 text-sm text-surface-700 dark:text-surface-300">{t('clipboard.noScript')}</p>
        </noscript>
      </div>
    );
  }

  if (text.trim() === '') {
    return (
      <div className="mx-auto max-w-md py-6 text-center">
        <ClipboardX aria-hidden="true" className="mx-auto size-10 text-surface-400" />
        <h1 className="mt-3 text-xl font-bold text-surface-900 dark:text-surface-50">{t('clipboard.empty.title')}</h1>
        <p className="mt-2 text-sm text-surface-600 dark:text-surface-400">
          {t('clipboard.empty.text')}
        </p>
      </div>
    );
  }

  const keys = t(isMac() ? 'clipboard.keys.mac' : 'clipboard.keys.other');
  return (
    <div className="mx-auto max-w-lg py-4">
      <div className="flex items-start gap-3">
        {state === 'copied' ? (
          <ClipboardCheck aria-hidden="true" className="mt-1 size-7 shrink-0 text-primary-600 dark:text-primary-400" />
        ) : (
          <Copy aria-hidden="true" className="mt-1 size-7 shrink-0 text-surface-500" />
        )}
        <div role="status" aria-live="polite" className="min-w-0">
          <h1 className="text-xl font-bold text-surface-900 dark:text-surface-50">
            {t(state === 'copied' ? 'clipboard.copied.title' : state === 'refused' ? 'clipboard.refused.title' : 'clipboard.copying.title')}
          </h1>
          <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">
            {state === 'copied' ? t('clipboard.copied.text') : state === 'refused' ? t('clipboard.refused.text', { keys }) : t('clipboard.copying.text')}
          </p>
        </div>
      </div>

      <label htmlFor={fieldId} className="mt-5 mb-1 block text-sm font-medium text-surface-800 dark:text-surface-200">
        {t('clipboard.field')}
      </label>
      {multiline ? (
        <textarea
          ref={fieldRef}
          id={fieldId}
          readOnly
          rows={Math.min(8, Math.max(3, text.split('\n').length))}
          value={text}
          onFocus={(e) => e.currentTarget.select()}
          className={cx(inputClasses, 'resize-y font-mono')}
        />
      ) : (
        <input ref={fieldRef} id={fieldId} readOnly value={text} onFocus={(e) => e.currentTarget.select()} className={cx(inputClasses, 'font-mono')} />
      )}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button onClick={() => void copy()} loading={state === 'copying'}>
          {state === 'copying' ? null : <Copy aria-hidden="true" className="size-4" />}
          {t('clipboard.copyAgain')}
        </Button>
      </div>
    </div>
  );
}
