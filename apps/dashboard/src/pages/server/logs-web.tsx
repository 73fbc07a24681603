import ScrollText from 'lucide-react/icons/scroll-text';
import { ServerPageFrame } from './server-frame';

/** Web Logs (/dashboard/:server/logs-web). */
export default function ServerLogsWeb() {
  return (
    <ServerPageFrame
      info={{
        name: 'Web Logs',
        icon: ScrollText,
        description: (server) => `Every change made to ${server} on this dashboard: who made it, when, and what changed.`,
        feature: 'The web log',
        upcoming: [
          'Each change made through the dashboard, with who made it and when.',
          'What changed, as before and after values.',
          'Filters by user, action and date, and the ticket events of this server.',
        ],
      }}
    />
  );
}
