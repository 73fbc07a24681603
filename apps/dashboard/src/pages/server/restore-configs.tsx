import History from 'lucide-react/icons/history';
import { ServerPageFrame } from './server-frame';

/** Restore Configs (/dashboard/:server/server-configs). */
export default function ServerRestoreConfigs() {
  return (
    <ServerPageFrame
      info={{
        name: 'Restore Configs',
        icon: History,
        description: (server) => `Earlier versions of ${server}'s configuration, to compare with the current one and restore.`,
        feature: 'Configuration versions',
        upcoming: [
          'Every saved configuration as a version you can open.',
          'A comparison of any version with the current configuration.',
          'One-click restore (which itself becomes a new version, so nothing is lost).',
          'Export as a signed file, and import one with its signature and contents checked before anything changes.',
        ],
      }}
    />
  );
}
