import { Card, PageHeader } from '@tickety/ui';
import { ComingNext } from '../components/notices';

/** The request states of spec §8 the playground will trigger on demand. */
const STATES: Array<{ name: string; what: string }> = [
  { name: 'Loading overlay', what: 'Shown while a request is still pending after 250 ms, removed when it answers.' },
  { name: 'Login Required', what: "A request answered as signed out, with the 'Login with discord' button." },
  { name: 'No access to a server', what: "\"You don't have access to this server.\" for the codes 403 and 405, with Home, Retry, Select Another Server and Cancel." },
  { name: 'Request Failed', what: "Any other failure: its message and '<code> - <http status>', with Home, Retry, Cancel and, when offered, Select Another Server." },
  { name: 'Retry limit', what: 'After 999 retries of one request, the user is sent Home.' },
];

/** /test: the staff playground for the request overlay and the error catalogue. */
export default function TestPage() {
  return (
    <div>
      <PageHeader title="Test" description="A staff playground that triggers each request overlay and error state on demand." />
      <div className="space-y-6">
        <Card className="p-5 sm:p-6">
          <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">States it will trigger</h2>
          <dl className="mt-4 space-y-4 text-sm">
            {STATES.map((s) => (
              <div key={s.name}>
                <dt className="font-medium text-surface-900 dark:text-surface-50">{s.name}</dt>
                <dd className="mt-0.5 text-surface-700 dark:text-surface-300">{s.what}</dd>
              </div>
            ))}
          </dl>
        </Card>
        <ComingNext title="The playground's triggers come with the staff tools">
          This version describes the states only; the buttons that trigger each of them arrive in a later version.
        </ComingNext>
      </div>
    </div>
  );
}
