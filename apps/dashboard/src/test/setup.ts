import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { startI18n } from '@tickety/shared';
import { afterEach } from 'vitest';
import '../lib/i18n';
import { configure } from '@testing-library/react';

// Tests run in English; a German test switches with changeLocale('de') and back in its afterEach.
await startI18n('en');

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(cleanup);

// Under CI's load a lazy page can take seconds to appear: findBy* and waitFor wait up to 10 s
// (a limit for what never comes, not a speed check: speed is measured under bench/).
configure({ asyncUtilTimeout: 10_000 });
