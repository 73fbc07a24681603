import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineHost } from '@tickety/build-config';

const appDir = dirname(fileURLToPath(import.meta.url));
export default defineHost({ appDir, runtimePlugins: [`${appDir}/src/remotes/retry-plugin.ts`] });
