import { Alert, Button } from '@tickety/ui';
import { failureDetail, failureText } from '../lib/failures';
import { useT } from '../lib/i18n';

/** A read that failed, in place: what failed, the API's reason (and its detail), and Try again. */
export function LoadFailed({ title, error, onRetry, className }: { title: string; error: unknown; onRetry: () => void; className?: string }) {
  const t = useT();
  const detail = failureDetail(error);
  return (
    <Alert
      tone="danger"
      title={title}
      {...(className ? { className } : {})}
      actions={
        <Button variant="secondary" size="sm" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    >
      {failureText(error)}
      {detail ? <span className="mt-1 block">{detail}</span> : null}
    </Alert>
  );
}
