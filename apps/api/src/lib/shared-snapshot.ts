import type { Clock } from './clock';

interface SnapshotOptions {
  /** How old a value may be before the next reader reads again. */
  maxAgeMs: number;
  /** How long a reader waits for a read in progress; past it, it gets null (the read still fills the cache). */
  waitMs: number;
  clock: Clock;
  /** Told of a read that failed (the readers got null). */
  onError?: (error: unknown) => void;
}

/**
 * A value read at most once per `maxAgeMs` in this instance, whoever asks: concurrent readers share
 * one read, and none waits longer than `waitMs` on it (a hung database costs a page that long, once).
 */
export class SharedSnapshot<T> {
  #value: { at: number; value: T } | null = null;
  #reading: Promise<T> | null = null;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly options: SnapshotOptions,
  ) {}

  async get(): Promise<T | null> {
    const { clock, maxAgeMs, waitMs } = this.options;
    if (this.#value && clock() - this.#value.at < maxAgeMs) return this.#value.value;
    const reading = this.#reading ?? this.#start();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), waitMs);
    });
    try {
      return await Promise.race([reading, late]);
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Forgets the value (it changed): the next reader reads again. */
  clear(): void {
    this.#value = null;
    this.#reading = null;
  }

  #start(): Promise<T> {
    const reading = this.read().then((value) => {
      this.#value = { at: this.options.clock(), value };
      return value;
    });
    this.#reading = reading;
    reading
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        if (this.#reading === reading) this.#reading = null;
      });
    return reading;
  }
}
