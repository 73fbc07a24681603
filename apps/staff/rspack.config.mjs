import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineRemote } from '@tickety/build-config';

export default defineRemote({ name: 'staff', appDir: dirname(fileURLToPath(import.meta.url)) });
