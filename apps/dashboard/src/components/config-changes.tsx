import { cx } from '@tickety/ui';
import { useMemo } from 'react';
import { type ChangeView, type ConfigChangeInput, type ConfigNamesSource, describeChanges, type ValueView } from '../lib/config-change-text';
import { useT } from '../lib/changes/i18n';

interface ConfigChangesProps {
  /** Field-level changes (`diffConfig` of @tickety/api-contract, or a Web Logs entry's `changes`). */
  changes: readonly ConfigChangeInput[];
  /**
   * A configuration that has the panels and multi-panels the changes name (the live one, or the
   * version shown): they are named by their names, else by what the changes carry, else by id.
   */
  config?: ConfigNamesSource;
  className?: string;
}

function Value({ value }: { value: ValueView }) {
  const t = useT();
  switch (value.kind) {
    case 'quoted':
      // Text someone wrote, as written: its line breaks kept, long words wrapped.
      return (
        <span className="whitespace-pre-wrap break-words [overflow-wrap:anywhere]">
          <span aria-hidden="true">{t('changes.quoteOpen')}</span>
          {value.text}
          <span aria-hidden="true">{t('changes.quoteClose')}</span>
        </span>
      );
    case 'muted':
      return <span className="italic text-surface-600 dark:text-surface-400">{value.text}</span>;
    case 'colour':
      return (
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block size-3.5 shrink-0 rounded-sm ring-1 ring-surface-900/20 dark:ring-white/30" style={{ backgroundColor: value.hex }} />
          <span className="font-mono">{value.hex}</span>
        </span>
      );
    case 'lines':
      return (
        <ul className="space-y-0.5">
          {value.lines.map((line, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one value never reorder
            <li key={index} className="break-words [overflow-wrap:anywhere]">
              {line.label ? <span className="font-medium">{line.label}: </span> : null}
              <Value value={line.value} />
            </li>
          ))}
        </ul>
      );
    default:
      return <span className="break-words [overflow-wrap:anywhere]">{value.text}</span>;
  }
}

function Side({ side, value }: { side: 'before' | 'after'; value: ValueView }) {
  const t = useT();
  return (
    <div
      className={cx(
        'min-w-0 rounded-md border px-2.5 py-1.5',
        side === 'before'
          ? 'border-red-200 bg-red-50/70 text-red-950 dark:border-red-900/60 dark:bg-red-950/40 dark:text-red-100'
          : 'border-emerald-200 bg-emerald-50/70 text-emerald-950 dark:border-emerald-900/60 dark:bg-emerald-950/40 dark:text-emerald-100',
      )}
    >
      <dt className="text-[11px] font-semibold uppercase tracking-wide opacity-75">{t(side === 'before' ? 'changes.before' : 'changes.after')}</dt>
      <dd className="mt-0.5 text-sm">
        <Value value={value} />
      </dd>
    </div>
  );
}

function Change({ view }: { view: ChangeView }) {
  const t = useT();
  return (
    <li className="py-2.5 first:pt-0 last:pb-0">
      <p className="flex flex-wrap items-center gap-x-1.5 gap-y-0.5 text-sm font-medium text-surface-900 dark:text-surface-50">
        {view.labels.map((label, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a path's levels never reorder
          <span key={index} className="inline-flex min-w-0 items-center gap-1.5 break-words [overflow-wrap:anywhere]">
            {index > 0 ? (
              <span aria-hidden="true" className="text-surface-400">
                ›
              </span>
            ) : null}
            {index > 0 ? <span className="sr-only">, </span> : null}
            {label}
          </span>
        ))}
        {view.kind !== 'changed' ? (
          <span
            className={cx(
              'ml-1 rounded px-1.5 py-px text-[11px] font-semibold uppercase tracking-wide',
              view.kind === 'added' ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200' : 'bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-200',
            )}
          >
            {t(view.kind === 'added' ? 'changes.added' : 'changes.removed')}
          </span>
        ) : null}
      </p>
      <dl className={cx('mt-1.5 grid gap-2', view.before && view.after && 'sm:grid-cols-2')}>
        {view.before ? <Side side="before" value={view.before} /> : null}
        {view.after ? <Side side="after" value={view.after} /> : null}
      </dl>
    </li>
  );
}

/**
 * A configuration's field-level changes, readable: each path as labels in the reader's language
 * ("Panel “Support” › Button › Label"), the values before and after (text quoted and wrapped, Yes/No,
 * colours as a swatch and hex, lists and objects summarised). Used by Web Logs and Restore Configs.
 */
export function ConfigChanges({ changes, config, className }: ConfigChangesProps) {
  const t = useT();
  const views = useMemo(() => describeChanges(t, changes, config), [t, changes, config]);
  if (views.length === 0) return <p className={cx('text-sm italic text-surface-500 dark:text-surface-400', className)}>{t('changes.none')}</p>;
  return (
    <ul aria-label={t('changes.list')} className={cx('divide-y divide-surface-200 dark:divide-surface-800', className)}>
      {views.map((view, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a path appears once in a diff; the index keeps keys unique if not
        <Change key={`${view.path}-${index}`} view={view} />
      ))}
    </ul>
  );
}
