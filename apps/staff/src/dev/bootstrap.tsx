// Standalone development only (`pnpm --filter @tickety/staff dev`): the remote's pages without the shell.
// No guards here (they are the shell's): the pages read the signed-in user's own flags, so sign in as the demo staff member.
import { startI18n } from '@tickety/shared';
import { startStandalone } from '@tickety/shared/dev';
import routes from '../routes';

// Tailwind for the standalone page, development builds only: a production build must not attach a
// full stylesheet to the chunk that also holds ./routes (the shell's own stylesheet covers remotes).
const styles = process.env.NODE_ENV === 'production' ? Promise.resolve() : import('./dev.css');

// The reader's language: the shared and this remote's catalogues (the shell does this when it hosts the pages).
void Promise.all([styles, startI18n()]).then(() => startStandalone(routes));
