import type { Queryable } from '../../db/driver';
import { type BlobInfo, type BlobStore, checkKey } from './index';

/** How many keys one DELETE names. */
const DELETE_BATCH = 1000;

/**
 * Blobs in the database (`BLOB_STORE=database`, the default): the `blobs` table (migration 023). A
 * database that is down fails as every query does (503 code 1009).
 */
export class PostgresBlobStore implements BlobStore {
  readonly kind = 'database';

  constructor(private readonly db: Queryable) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    await this.db.query(
      `INSERT INTO blobs (key, content_type, size, content) VALUES ($1, $2, $3, $4)
       ON CONFLICT (key) DO UPDATE SET content_type = EXCLUDED.content_type, size = EXCLUDED.size, content = EXCLUDED.content, created_at = now()`,
      [checkKey(key), contentType, content.byteLength, content],
    );
  }

  async get(key: string): Promise<Buffer | null> {
    const { rows } = await this.db.query<{ content: Uint8Array }>('SELECT content FROM blobs WHERE key = $1', [checkKey(key)]);
    return rows[0] ? Buffer.from(rows[0].content) : null;
  }

  async head(key: string): Promise<BlobInfo | null> {
    const { rows } = await this.db.query<{ size: number; content_type: string }>('SELECT size, content_type FROM blobs WHERE key = $1', [checkKey(key)]);
    return rows[0] ? { size: Number(rows[0].size), contentType: rows[0].content_type } : null;
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      await this.db.query('DELETE FROM blobs WHERE key = ANY($1::text[])', [keys.slice(i, i + DELETE_BATCH).map(checkKey)]);
    }
  }

  close(): void {}
}
