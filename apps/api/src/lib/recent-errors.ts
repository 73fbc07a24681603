/** One server error as the System page shows it (never a stack, a body or a secret). */
interface RecentError {
  at: string;
  requestId: string;
  method: string;
  /** The route the server matched (its pattern, not the raw URL), or null when none did. */
  route: string | null;
  status: number;
  code: number;
  message: string;
}

/**
 * The last server errors (5xx) of this instance, newest first, in a bounded ring: what staff see on
 * the System page with the request id to find in the logs. Kept in memory: each instance has its own,
 * and a restart empties it (the logs keep everything).
 */
export class RecentErrors {
  readonly #items: RecentError[] = [];
  constructor(readonly capacity = 100) {}

  add(error: RecentError): void {
    this.#items.unshift(error);
    if (this.#items.length > this.capacity) this.#items.length = this.capacity;
  }

  list(): RecentError[] {
    return [...this.#items];
  }
}
