/** One object the stand-in holds. */
export interface S3StoredObject {
  bucket: string;
  key: string;
  size: number;
  contentType: string;
  /** The MD5 of the bytes, quoted, as S3's ETag of a single-part upload. */
  etag: string;
  /** When it was put (the stand-in's clock, ISO 8601). */
  lastModified: string;
}

/** The operations the stand-in serves, as counted by `requests()`. */
export type S3Operation = 'CreateBucket' | 'HeadBucket' | 'PutObject' | 'GetObject' | 'HeadObject' | 'DeleteObject' | 'DeleteObjects';

/**
 * Reads and steers one `s3Sandbox` registration (tests, the demo): its objects, its request counts,
 * and faults. Make it with `createS3SandboxControl()` and pass it as the option `control`.
 */
export interface S3SandboxControl {
  /** Every object held, by bucket then key. */
  objects(bucket?: string): S3StoredObject[];
  /** An object's bytes, or null. */
  bytes(bucket: string, key: string): Buffer | null;
  /** Signed requests served per operation (refused signatures are not counted). */
  requests(): Partial<Record<S3Operation, number>>;
  /** While on, every request answers 503 ServiceUnavailable (S3's XML), as a store that is down. */
  outage(on: boolean): void;
  /** After `count` more PutObject succeed, every PutObject answers 503 until called with null. */
  failPutsAfter(count: number | null): void;
  /** Forgets every object, count and fault; the buckets stay. */
  reset(): void;
}

interface StoredBytes extends S3StoredObject {
  content: Buffer;
}

/** What the plugin reaches through a control. */
interface Internals {
  buckets: Map<string, Map<string, StoredBytes>>;
  counts: Map<S3Operation, number>;
  down: boolean;
  putsLeft: number | null;
}

const internals = new WeakMap<S3SandboxControl, Internals>();

export function createS3SandboxControl(): S3SandboxControl {
  const state: Internals = { buckets: new Map(), counts: new Map(), down: false, putsLeft: null };
  const describe = ({ content: _content, ...object }: StoredBytes): S3StoredObject => ({ ...object });
  const control: S3SandboxControl = {
    objects: (bucket) =>
      [...state.buckets.entries()]
        .filter(([name]) => bucket === undefined || name === bucket)
        .sort(([left], [right]) => (left < right ? -1 : 1))
        .flatMap(([, objects]) => [...objects.values()].sort((left, right) => (left.key < right.key ? -1 : 1)).map(describe)),
    bytes: (bucket, key) => {
      const found = state.buckets.get(bucket)?.get(key);
      return found ? Buffer.from(found.content) : null;
    },
    requests: () => Object.fromEntries(state.counts),
    outage: (on) => {
      state.down = on;
    },
    failPutsAfter: (count) => {
      state.putsLeft = count;
    },
    reset: () => {
      for (const objects of state.buckets.values()) objects.clear();
      state.counts.clear();
      state.down = false;
      state.putsLeft = null;
    },
  };
  internals.set(control, state);
  return control;
}

export function controlInternals(control: S3SandboxControl): Internals {
  const found = internals.get(control);
  if (!found) throw new TypeError('s3Sandbox: control must come from createS3SandboxControl()');
  return found;
}

export type { StoredBytes };
