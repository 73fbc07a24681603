import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';
import { startI18n } from '../i18n/i18n';

await startI18n('en');

// Under CI's load a lazy page can take seconds to appear: findBy* and waitFor wait up to 10 s
// (a limit for what never comes, not a speed check: speed is measured under bench/).
configure({ asyncUtilTimeout: 10_000 });
