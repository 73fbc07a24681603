import { overlayScript } from '../../kit/overlay-script';

/** `checkout.js`: when framed, the success link is hidden because Paddle.js redirects the host page itself. */
export const CHECKOUT_SCRIPT = overlayScript({
  source: 'paddle-sandbox-checkout',
  eventBlockId: 'paddle-event',
  unreadableEvent: '[Paddle sandbox] unreadable checkout event',
  framed: 'hide-links',
});
