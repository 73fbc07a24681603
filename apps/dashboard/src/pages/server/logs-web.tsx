import ScrollText from 'lucide-react/icons/scroll-text';
import { ServerPageFrame } from './server-frame';

/** Web Logs (/dashboard/:server/logs-web). */
export default function ServerLogsWeb() {
  return (
    <ServerPageFrame
      info={{
        name: 'sidebar.serverLogsWeb',
        icon: ScrollText,
        description: 'server.logsWeb.description',
        feature: 'server.logsWeb.feature',
        upcoming: ['server.logsWeb.upcoming.changes', 'server.logsWeb.upcoming.values', 'server.logsWeb.upcoming.filters'],
      }}
    />
  );
}
