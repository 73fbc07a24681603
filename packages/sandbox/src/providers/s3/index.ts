/**
 * A stand-in for an S3-compatible object store (path-style, AWS Signature Version 4), on loopback,
 * for tests and the demo: where the API keeps transcripts with BLOB_STORE=s3. Production never
 * mounts it. Routes, options and behaviour: docs/sandbox.md#s3.
 */
export { createS3SandboxControl, type S3Operation, type S3SandboxControl, type S3StoredObject } from './control';
export { type S3SandboxOptions, s3Sandbox } from './plugin';
export { signS3Request } from './sigv4';
