import type { AppConfig } from '../../config';
import type { Queryable } from '../../db/driver';
import type { BlobStore } from './index';
import { PostgresBlobStore } from './postgres';
import { S3BlobStore } from './s3';

/** The store BLOB_STORE names (config.ts checked its settings): the database's `blobs` table, or the bucket. */
export function createBlobStore(settings: AppConfig['blobStore'], db: Queryable, warn: (fields: object, msg: string) => void): BlobStore {
  if (settings.kind === 'database') return new PostgresBlobStore(db);
  const { kind: _kind, ...s3 } = settings;
  return new S3BlobStore(s3, warn);
}
