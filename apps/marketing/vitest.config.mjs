import { vitestConfig } from '@tickety/build-config/vitest';
import { defineConfig } from 'vitest/config';

/** The bundler loads `.md` as its source text (asset/source); do the same in tests. */
const markdownAsSource = {
  name: 'markdown-as-source',
  enforce: 'pre',
  transform(code, id) {
    if (!id.endsWith('.md')) return null;
    return { code: `export default ${JSON.stringify(code)};`, map: null };
  },
};

const base = vitestConfig({ environment: 'happy-dom', setupFiles: ['./src/test/setup.ts'] });
export default defineConfig({ ...base, plugins: [...base.plugins, markdownAsSource] });
