import { vitestConfig } from '@tickety/build-config/vitest';
import { defineConfig } from 'vitest/config';

export default defineConfig(vitestConfig({ environment: 'happy-dom', setupFiles: ['./src/test/setup.ts'] }));
