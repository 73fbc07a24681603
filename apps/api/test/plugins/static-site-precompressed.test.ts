import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app';
import { databases } from '../helpers/db';
import { entry, writeFile, writeSite } from '../helpers/site';

// The layout scripts/deploy.mjs writes: `.br` and `.gz` beside a version's compressible files.
const VERSION = 'aaaaaaaaaaa2';
const root = mkdtempSync(join(tmpdir(), 'tickety-site-precompressed-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const source = `${'export const line = "a line the compressors can fold";\n'.repeat(200)}`;
const brotli = brotliCompressSync(source);
const gzip = gzipSync(source);
const folder = `remotes/marketing/${VERSION}`;
writeSite(root, { remotes: { marketing: entry('marketing', VERSION) } });
writeFile(join(root, folder, 'remoteEntry.js'), source);
writeFile(join(root, folder, 'remoteEntry.js.br'), brotli);
writeFile(join(root, folder, 'remoteEntry.js.gz'), gzip);
// Only gzip beside it (brotli was not smaller), and nothing beside it.
writeFile(join(root, folder, 'static/js/gzip-only.0123abcd.js'), source);
writeFile(join(root, folder, 'static/js/gzip-only.0123abcd.js.gz'), gzip);
writeFile(join(root, folder, 'static/js/plain.0123abcd.js'), source);
writeFile(join(root, 'assets/main.0123abcd.js'), source);
writeFile(join(root, 'assets/main.0123abcd.js.br'), brotli);
// A file that is revalidated (no hash in its name, outside a version folder), compressed too.
writeFile(join(root, 'assets/service-notes.js'), source);
writeFile(join(root, 'assets/service-notes.js.br'), brotli);
writeFile(join(root, 'assets/service-notes.js.gz'), gzip);

const entryUrl = `/${folder}/remoteEntry.js`;

describe.each(databases())('precompressed site files on $name', (database) => {
  const t = useTestApp(database, { env: { ALL_IN_ONE: '1', STATIC_ROOT: root } });
  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url, headers });

  it('sends the brotli copy to a browser that accepts it, as the file it stands for', async () => {
    const res = await get(entryUrl, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^application\/javascript|^text\/javascript/);
    expect(res.headers['content-length']).toBe(String(brotli.length));
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Sent as written at deploy time, not compressed again on the way out.
    expect(res.rawPayload.equals(brotli)).toBe(true);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(source);
  });

  it('sends the gzip copy to a client without brotli, and the file itself to one without either', async () => {
    const gzipped = await get(entryUrl, { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['content-length']).toBe(String(gzip.length));
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(source);
    const plain = await get(entryUrl, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(source);
    const none = await get(entryUrl);
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body).toBe(source);
  });

  it('falls back to the next copy, then to the file compressed on the fly, when one is missing', async () => {
    const gzipOnly = await get(`/${folder}/static/js/gzip-only.0123abcd.js`, { 'accept-encoding': 'br, gzip' });
    expect(gzipOnly.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipOnly.rawPayload).toString()).toBe(source);
    const plain = await get(`/${folder}/static/js/plain.0123abcd.js`, { 'accept-encoding': 'br' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(plain.rawPayload).toString()).toBe(source);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('keeps the shell assets’ cache policy for their copies', async () => {
    const res = await get('/assets/main.0123abcd.js', { 'accept-encoding': 'br' });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers HEAD with the headers of the copy GET would send, and no body', async () => {
    const res = await get(entryUrl, { 'accept-encoding': 'br' }, 'HEAD');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-length']).toBe(String(brotli.length));
    expect(res.body).toBe('');
  });

  it('sends an immutable copy without validators (never revalidated), and a Range is of the copy sent', async () => {
    const first = await get(entryUrl, { 'accept-encoding': 'br' });
    expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(first.headers.etag).toBeUndefined();
    expect(first.headers['last-modified']).toBeUndefined();
    const part = await get(entryUrl, { 'accept-encoding': 'br', range: 'bytes=0-9' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-encoding']).toBe('br');
    expect(part.headers['content-range']).toBe(`bytes 0-9/${brotli.length}`);
    expect(part.rawPayload.equals(brotli.subarray(0, 10))).toBe(true);
  });

  it('revalidates each copy of a file that is not immutable by its own ETag (304)', async () => {
    const url = '/assets/service-notes.js';
    const first = await get(url, { 'accept-encoding': 'br' });
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['content-encoding']).toBe('br');
    const etag = String(first.headers.etag);
    expect(etag).toBeTruthy();
    const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const gzipped = await get(url, { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzipped.statusCode).toBe(200);
    expect(gzipped.headers.etag).not.toBe(etag);
  });
});
