import { PLAYGROUND_LIMITS } from '@tickety/api-contract';
import type { FastifyReply } from 'fastify';
import { ApiHttpError } from '../lib/errors';

/** How a wait ended: its time passed, the client went away, or the server is shutting down. */
export type WaitEnd = 'done' | 'gone' | 'closing';

/**
 * The requests the playground holds open (slow successes, held answers): at most
 * PLAYGROUND_LIMITS.holdsPerUser per staff member and holdsTotal per instance, so clicking cannot
 * tie up the server's sockets; every hold ends when its client goes away, and all of them at once
 * when the server shuts down.
 */
export class PlaygroundHolds {
  #total = 0;
  readonly #perUser = new Map<string, number>();
  readonly #open = new Set<() => void>();

  /** Takes a place for `userId` or throws the answer (429 for this member, 503 for the instance); returns its release. */
  take(userId: string): () => void {
    const mine = this.#perUser.get(userId) ?? 0;
    if (mine >= PLAYGROUND_LIMITS.holdsPerUser) {
      throw new ApiHttpError('RATE_LIMITED', {
        message: `You already have ${mine} playground requests waiting: let one finish (or cancel it) first.`,
        retryAfter: 5,
      });
    }
    if (this.#total >= PLAYGROUND_LIMITS.holdsTotal) {
      throw new ApiHttpError('OVERLOADED', { message: 'The playground holds as many waiting requests as it allows right now. Try again in a few seconds.', retryAfter: 5 });
    }
    this.#total += 1;
    this.#perUser.set(userId, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total -= 1;
      const left = (this.#perUser.get(userId) ?? 1) - 1;
      if (left > 0) this.#perUser.set(userId, left);
      else this.#perUser.delete(userId);
    };
  }

  /** Waits `ms`, or less when the client closes the connection or the server shuts down. */
  wait(ms: number, reply: FastifyReply): Promise<WaitEnd> {
    return new Promise<WaitEnd>((resolve) => {
      const end = (how: WaitEnd) => {
        clearTimeout(timer);
        reply.raw.off('close', onClose);
        this.#open.delete(onShutdown);
        resolve(how);
      };
      const onClose = () => {
        if (!reply.raw.writableEnded) end('gone');
      };
      const onShutdown = () => end('closing');
      const timer = setTimeout(() => end('done'), ms);
      reply.raw.on('close', onClose);
      this.#open.add(onShutdown);
    });
  }

  /** Registers something to end at shutdown; returns its unregistration. */
  onShutdown(fn: () => void): () => void {
    this.#open.add(fn);
    return () => this.#open.delete(fn);
  }

  shutdown(): void {
    for (const fn of [...this.#open]) fn();
  }
}
