// Standalone development only (`pnpm --filter @tickety/dashboard dev`): the remote's pages without the shell.
import { startStandalone } from '@tickety/shared/dev';
import routes from '../routes';

void startStandalone(routes);
