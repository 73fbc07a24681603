import type { ReactNode } from 'react';
import { Alert } from './badge';
import { Button } from './button';

export interface LoadFailedProps {
  /** What could not be read ("The statistics could not be loaded"). */
  title: string;
  /** Why, in the reader's language (a remote passes `failureText(error)` of @tickety/shared). */
  reason: ReactNode;
  /** More about the failure (`failureDetail(error)`), on its own line; left out when null. */
  detail?: ReactNode;
  /** The Retry button's words, from the caller's catalogue ("Try again"). */
  retryLabel: string;
  onRetry: () => void;
  /** 'warning': what is shown is from before the failed refresh. */
  tone?: 'danger' | 'warning';
  className?: string;
}

/** A read that failed, in place of what it would have shown: what failed, why, and Retry. */
export function LoadFailed({ title, reason, detail = null, retryLabel, onRetry, tone = 'danger', className }: LoadFailedProps) {
  return (
    <Alert
      tone={tone}
      title={title}
      {...(className ? { className } : {})}
      actions={
        <Button variant="secondary" size="sm" onClick={onRetry}>
          {retryLabel}
        </Button>
      }
    >
      {reason}
      {detail ? <span className="mt-1 block">{detail}</span> : null}
    </Alert>
  );
}
