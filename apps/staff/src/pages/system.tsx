import { Link } from '@tickety/shared';
import { Card, PageHeader } from '@tickety/ui';
import { ComingNext, linkClasses } from '../components/notices';

/** /system: the health of the service, for staff. */
export default function SystemPage() {
  return (
    <div>
      <PageHeader title="System" description="Health of the service: database, webhook backlog by provider, bot shards and recent errors." />
      <div className="space-y-6">
        <ComingNext title="System health comes with the staff tools">
          The database state, the webhook backlog of Paddle, FastSpring, Discord and Chargebee, the bot's shards and the recent errors are not shown in
          this version.
        </ComingNext>
        <Card className="p-5 text-sm text-surface-700 sm:p-6 dark:text-surface-300">
          <h2 className="text-base font-semibold text-surface-900 dark:text-surface-50">Available now</h2>
          <p className="mt-2">
            The public{' '}
            <Link to="/status" className={linkClasses}>
              Status page
            </Link>{' '}
            shows the service health and every bot shard's state, latency and last heartbeat.
          </p>
        </Card>
      </div>
    </div>
  );
}
