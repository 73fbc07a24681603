import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { startI18n } from '@tickety/shared';
import { resetShared } from '@tickety/shared/testing';
import { afterEach } from 'vitest';
import '../lib/i18n';

await startI18n('en');

// Unmount first (a mounted page would re-render against a reset configuration), then reset the
// request client, the shared configuration and every mock. Each test renders with a fresh store.
afterEach(() => {
  cleanup();
  resetShared();
});
