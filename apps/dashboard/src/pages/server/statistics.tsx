import ChartColumn from 'lucide-react/icons/chart-column';
import { ServerPageFrame } from './server-frame';

/** Statistics (/dashboard/:server/statistics). */
export default function ServerStatistics() {
  return (
    <ServerPageFrame
      info={{
        name: 'sidebar.serverStatistics',
        icon: ChartColumn,
        description: 'server.statistics.description',
        feature: 'server.statistics.feature',
        upcoming: [
          'server.statistics.upcoming.volume',
          'server.statistics.upcoming.times',
          'server.statistics.upcoming.tables',
          'server.statistics.upcoming.ranges',
        ],
      }}
    />
  );
}
