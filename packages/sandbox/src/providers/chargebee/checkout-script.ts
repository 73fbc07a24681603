import { overlayScript } from '../../kit/overlay-script';

/** `checkout.js` of the hosted pages: Chargebee's pages post no event, so only the form behaviour matters. */
export const CHECKOUT_SCRIPT = overlayScript({
  source: 'chargebee-sandbox-checkout',
  eventBlockId: 'chargebee-event',
  unreadableEvent: '[Chargebee sandbox] unreadable checkout event',
  framed: 'hide-links',
});
