import History from 'lucide-react/icons/history';
import { ServerPageFrame } from './server-frame';

/** Restore Configs (/dashboard/:server/server-configs). */
export default function ServerRestoreConfigs() {
  return (
    <ServerPageFrame
      info={{
        name: 'sidebar.serverRestoreConfigs',
        icon: History,
        description: 'server.restore.description',
        feature: 'server.restore.feature',
        upcoming: [
          'server.restore.upcoming.versions',
          'server.restore.upcoming.compare',
          'server.restore.upcoming.restore',
          'server.restore.upcoming.export',
        ],
      }}
    />
  );
}
