import { Card, PageHeader } from '@tickety/ui';
import { ComingNext } from '../components/notices';

/** /support-team: search users and servers, read-only, for staff. */
export default function SupportTeamPage() {
  return (
    <div>
      <PageHeader title="Support Team" description="Search users and servers by id or name, and look at them read-only." />
      <div className="space-y-6">
        <ComingNext title="Search comes with the staff tools">This version cannot search users or servers yet.</ComingNext>
        <Card className="p-5 text-sm text-surface-700 sm:p-6 dark:text-surface-300">
          <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">What it will show</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            <li>Users and servers found by Discord id or by name.</li>
            <li>A server's ticket configuration and its tickets, read-only.</li>
            <li>A user's subscriptions, with a link to their billing page.</li>
          </ul>
        </Card>
      </div>
    </div>
  );
}
