import { useSearchParams } from '@tickety/shared';
import ClipboardCheck from 'lucide-react/icons/clipboard-check';
import ClipboardX from 'lucide-react/icons/clipboard-x';
import Copy from 'lucide-react/icons/copy';
import { Button, cx, inputClasses } from '@tickety/ui';
import { useCallback, useEffect, useId, useRef, useState } from 'react';

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

  if (text.trim() === '') {
    return (
      <div className="mx-auto max-w-md py-6 text-center">
        <ClipboardX aria-hidden="true" className="mx-auto size-10 text-surface-400" />
        <h1 className="mt-3 text-xl font-bold text-surface-900 dark:text-surface-50">Nothing to copy</h1>
        <p className="mt-2 text-sm text-surface-600 dark:text-surface-400">
          This link has no text in it. Go back to Discord and use the copy link again; if it keeps happening, the link was cut short.
        </p>
      </div>
    );
  }

  const keys = isMac() ? '⌘ Cmd + C' : 'Ctrl + C';
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
            {state === 'copied' ? 'Copied to your clipboard' : state === 'refused' ? 'Copy it by hand' : 'Copying…'}
          </h1>
          <p className="mt-1 text-sm text-surface-600 dark:text-surface-400">
            {state === 'copied'
              ? 'Paste it wherever you need it. You can close this page.'
              : state === 'refused'
                ? `Your browser did not let this page copy. The text below is selected: press ${keys}, or press Copy again.`
                : 'One moment.'}
          </p>
        </div>
      </div>

      <label htmlFor={fieldId} className="mt-5 mb-1 block text-sm font-medium text-surface-800 dark:text-surface-200">
        Text to copy
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
          Copy again
        </Button>
      </div>
    </div>
  );
}
