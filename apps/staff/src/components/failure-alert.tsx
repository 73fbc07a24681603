import { failureText } from '@tickety/shared';
import { Alert, Button } from '@tickety/ui';

export interface FailureAlertProps {
  /** `danger`: nothing to show; `warning`: what is shown is from before the failed refresh. */
  tone?: 'danger' | 'warning';
  title: string;
  /** The failure, said in the reader's language (`failureText`). */
  error: unknown;
  retryLabel: string;
  onRetry: () => void;
  className?: string;
}

/** A read that failed, with its Retry: the staff pages' one way of saying so. */
export function FailureAlert({ tone = 'danger', title, error, retryLabel, onRetry, className }: FailureAlertProps) {
  return (
    <Alert
      tone={tone}
      title={title}
      className={className}
      actions={
        <Button variant="secondary" size="sm" onClick={onRetry}>
          {retryLabel}
        </Button>
      }
    >
      {failureText(error)}
    </Alert>
  );
}
