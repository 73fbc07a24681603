import '@testing-library/jest-dom/vitest';
import { startI18n } from '@tickety/shared';
import '../lib/i18n';

// Tests run in English (the shared and shell catalogues loaded, as the app loads them at start).
await startI18n('en');
