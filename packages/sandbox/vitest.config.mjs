import { defineConfig } from 'vitest/config';
import { vitestConfig } from '@tickety/build-config/vitest';

export default defineConfig(vitestConfig());
