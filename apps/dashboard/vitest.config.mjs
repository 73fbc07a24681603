import { defineConfig } from 'vitest/config';
import { vitestConfig } from '@tickety/build-config/vitest';

export default defineConfig(vitestConfig({ environment: 'happy-dom', setupFiles: ['./src/test/setup.ts'] }));
