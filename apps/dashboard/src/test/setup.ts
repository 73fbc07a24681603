import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { startI18n } from '@tickety/shared';
import '../lib/i18n';

// Tests run in English; a German test switches with changeLocale('de') and back in its afterEach.
await startI18n('en');

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(cleanup);
