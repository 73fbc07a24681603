import '@testing-library/jest-dom/vitest';
import { startI18n } from '../i18n/i18n';

await startI18n('en');
