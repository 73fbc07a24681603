import { failureText } from '@tickety/shared';
import { Alert, Button } from '@tickety/ui';
import { useT } from '../lib/i18n';

/** A read that failed, in place: what failed, the reason in the reader's language, and Try again. */
export function LoadFailed({ title, error, onRetry }: { title: string; error: unknown; onRetry: () => void }) {
  const t = useT();
  return (
    <Alert
      tone="danger"
      title={title}
      actions={
        <Button variant="secondary" size="sm" onClick={onRetry}>
          {t('premium.plans.retry')}
        </Button>
      }
    >
      {failureText(error)}
    </Alert>
  );
}
