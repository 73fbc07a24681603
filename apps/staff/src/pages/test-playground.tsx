import { formatNumber } from '@tickety/shared';
import { Card, PageHeader } from '@tickety/ui';
import { ComingNext } from '../components/notices';
import { type t as translate, useT } from '../lib/i18n';

/** A message of this remote's catalogue. */
type MessageKey = Parameters<typeof translate>[0];

/** The overlay delay and the retry limit of docs/behaviour.md#request-overlay-and-error-catalogue, shown in the states' descriptions. */
const OVERLAY_DELAY_MS = 250;
const RETRY_LIMIT = 999;

/** The request states of docs/behaviour.md#request-overlay-and-error-catalogue the playground will trigger on demand (catalogue keys of their name and description). */
const STATES: Array<{ id: string; name: MessageKey; what: MessageKey }> = [
  { id: 'loading', name: 'test.state.loading.name', what: 'test.state.loading.what' },
  { id: 'login', name: 'test.state.login.name', what: 'test.state.login.what' },
  { id: 'noAccess', name: 'test.state.noAccess.name', what: 'test.state.noAccess.what' },
  { id: 'failed', name: 'test.state.failed.name', what: 'test.state.failed.what' },
  { id: 'retryLimit', name: 'test.state.retryLimit.name', what: 'test.state.retryLimit.what' },
];

/** /test: the staff playground for the request overlay and the error catalogue. */
export default function TestPage() {
  const t = useT();
  const values = { delay: formatNumber(OVERLAY_DELAY_MS), limit: formatNumber(RETRY_LIMIT) };
  return (
    <div>
      <PageHeader title={t('title.test')} description={t('test.description')} />
      <div className="space-y-6">
        <Card className="p-5 sm:p-6">
          <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">{t('test.statesHeading')}</h2>
          <dl className="mt-4 space-y-4 text-sm">
            {STATES.map((s) => (
              <div key={s.id}>
                <dt className="font-medium text-surface-900 dark:text-surface-50">{t(s.name)}</dt>
                <dd className="mt-0.5 text-surface-700 dark:text-surface-300">{t(s.what, values)}</dd>
              </div>
            ))}
          </dl>
        </Card>
        <ComingNext title={t('test.next.title')}>{t('test.next.body')}</ComingNext>
      </div>
    </div>
  );
}
