import { defineConfig } from 'vitest/config';
import { vitestConfig } from './src/vitest.mjs';

export default defineConfig(vitestConfig({ include: ['src/**/*.test.mjs'] }));
