import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without type declarations
import { bundle } from '../scripts/build.mjs';
import { API_DIR } from '../src/config';

type Bundle = { metafile: { inputs: Record<string, unknown> } };
const inputs = async (entry: string, outfile: string) => Object.keys(((await bundle(entry, outfile, { write: false })) as Bundle).metafile.inputs);

describe('the production build of the API', () => {
  it('contains no sandbox code: only the all-in-one launcher composes the two', async () => {
    const server = await inputs('src/server.ts', 'dist/server.js');
    expect(server.some((p) => p.includes('src/app.ts'))).toBe(true);
    expect(server.filter((p) => p.includes('packages/sandbox/') || p.includes('apps/api/demo/') || p.startsWith('demo/'))).toEqual([]);
    // The launcher's bundle is where the sandbox is.
    const launcher = await inputs('demo/all-in-one.ts', 'dist/all-in-one.js');
    expect(launcher.some((p) => p.includes('packages/sandbox/src/'))).toBe(true);
  }, 60_000);
});

describe('the API source', () => {
  it('never imports the sandbox (it reaches Discord through its base URLs)', () => {
    const files = readdirSync(join(API_DIR, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((f) => readFileSync(join(API_DIR, 'src', f), 'utf8').includes('@tickety/sandbox'))).toEqual([]);
  });
});
