import { type PaddleCheckoutOptions, type PaddleEvent, type PaddleGlobal, resetPaddle } from '@tickety/shared';
import { afterEach, beforeEach } from 'vitest';

/** The runtime config of a site that sells through Paddle. */
export const PADDLE = { paddleToken: 'test_token', paddleScriptUrl: 'https://paddle.test/paddle.js' };

/**
 * Paddle.js as a page sees it, installed around each test of the calling file: the checkouts opened,
 * and `emit` to send Paddle's events back. Call it before the file's own afterEach (hooks unwind in reverse).
 */
export function fakePaddleJs() {
  const paddle: { opened: PaddleCheckoutOptions[]; emit: (event: PaddleEvent) => void } = { opened: [], emit: () => undefined };
  const fake: PaddleGlobal = {
    Initialize(options) {
      paddle.emit = (event) => options.eventCallback?.(event);
    },
    Environment: { set: () => undefined },
    Checkout: { open: (options) => void paddle.opened.push(options), close: () => undefined },
  };
  beforeEach(() => {
    paddle.opened = [];
    window.Paddle = fake;
  });
  afterEach(() => {
    resetPaddle();
    delete window.Paddle;
  });
  return paddle;
}
