import { startStandalone } from '@tickety/shared/dev';
import routes from '../routes';

// `pnpm dev --filter @tickety/marketing`: the pages on their own dev server, against the API on :3000.
// Tailwind's base for the standalone page, development builds only: in production the shell's
// stylesheet provides it, and a full sheet must not ride along with the chunk holding ./routes.
const styles = process.env.NODE_ENV === 'production' ? Promise.resolve() : import('./dev.css');

void styles.then(() => startStandalone(routes));
