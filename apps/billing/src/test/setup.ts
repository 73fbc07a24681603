import '@testing-library/jest-dom/vitest';
import { startI18n } from '@tickety/shared';
import '../lib/i18n';

await startI18n('en');
