// Standalone development only (`pnpm --filter @tickety/staff dev`): the remote's pages without the shell.
// No guards here (they are the shell's): the pages read the signed-in user's own flags, so sign in as the demo staff member.
import { startStandalone } from '@tickety/shared/dev';
import routes from '../routes';
import './dev.css';

void startStandalone(routes, [
  { path: '/team-manager', page: 'teamManager' },
  { path: '/test', page: 'test' },
  { path: '/system', page: 'system' },
  { path: '/systemUpdate', page: 'systemUpdate' },
  { path: '/support-team', page: 'supportTeam' },
]);
