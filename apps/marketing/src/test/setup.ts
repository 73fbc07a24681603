import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { startI18n } from '@tickety/shared';
import { resetShared } from '@tickety/shared/testing';
import { afterEach } from 'vitest';
import '../lib/i18n';
import { configure } from '@testing-library/react';

await startI18n('en');

// Unmount first (a mounted page would re-render against a reset configuration), then reset the
// request client, the shared configuration and every mock. Each test renders with a fresh store.
afterEach(() => {
  cleanup();
  resetShared();
});

// Under CI's load a lazy page can take seconds to appear: findBy* and waitFor wait up to 10 s
// (a limit for what never comes, not a speed check: speed is measured under bench/).
configure({ asyncUtilTimeout: 10_000 });
