import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineRemote } from '@tickety/build-config';

export default defineRemote({ name: 'dashboard', appDir: dirname(fileURLToPath(import.meta.url)) });
