import ChartColumn from 'lucide-react/icons/chart-column';
import { ServerPageFrame } from './server-frame';

/** Statistics (/dashboard/:server/statistics). */
export default function ServerStatistics() {
  return (
    <ServerPageFrame
      info={{
        name: 'Statistics',
        icon: ChartColumn,
        description: (server) => `How tickets on ${server} are going: volume, backlog and how fast your team answers.`,
        feature: 'Ticket statistics',
        upcoming: [
          'Tickets opened and closed over time, and the open backlog.',
          'First-response and resolution times (median and 90th percentile).',
          'Tables per panel and per staff member, and ticket ratings.',
          'Ranges of 7, 30 or 90 days or your own, and a CSV export.',
        ],
      }}
    />
  );
}
