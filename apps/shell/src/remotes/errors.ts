import type { RemoteId } from '@tickety/shared';

/** A remote's routes module could not be loaded (manifest or entry missing, network, bad export). */
export class RemoteLoadError extends Error {
  constructor(
    readonly remote: RemoteId,
    cause: unknown,
  ) {
    super(`The ${remote} part of the site could not be loaded.`, { cause });
    this.name = 'RemoteLoadError';
  }
}
