import FileText from 'lucide-react/icons/file-text';
import Hourglass from 'lucide-react/icons/hourglass';
import { Alert } from '@tickety/ui';
import type { ReactNode } from 'react';
import { useT } from '../../lib/i18n';

export interface TranscriptDetail {
  label: string;
  value: ReactNode;
}

/**
 * A transcript page's frame until the viewer arrives: what the address points to, and an honest
 * notice. Rendered in the shell's bare transcript layout (no landmarks of its own).
 */
export function TranscriptFrame({ title, version, details, children }: { title: string; version: string; details: TranscriptDetail[]; children: ReactNode }) {
  const t = useT();
  return (
    <div className="mx-auto w-full max-w-4xl">
      <div className="flex items-start gap-3 border-b border-surface-200 pb-4 dark:border-surface-800">
        <FileText aria-hidden="true" className="mt-1 size-6 shrink-0 text-primary-600 dark:text-primary-400" />
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-surface-500 uppercase dark:text-surface-400">{t('transcript.frame.kicker', { version })}</p>
          <h1 className="text-xl font-bold break-all text-surface-900 sm:text-2xl dark:text-surface-50">{title}</h1>
        </div>
      </div>
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        {details.map((d) => (
          <div key={d.label} className="min-w-0">
            <dt className="text-surface-500 dark:text-surface-400">{d.label}</dt>
            <dd className="font-medium break-all text-surface-900 dark:text-surface-100">{d.value}</dd>
          </div>
        ))}
      </dl>
      <Alert tone="info" icon={<Hourglass aria-hidden="true" className="size-4" />} title={t('transcript.frame.notAvailable')} className="mt-6">
        {children}
      </Alert>
    </div>
  );
}
