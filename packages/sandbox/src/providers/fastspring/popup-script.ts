import { overlayScript } from '../../kit/overlay-script';
import { POPUP_SOURCE } from './sbl';

/** `popup.js`: the event block holds the order's id and reference once paid; the "Close" button relays "close". */
export const POPUP_SCRIPT = overlayScript({
  source: POPUP_SOURCE,
  eventBlockId: 'fastspring-event',
  unreadableEvent: '[FastSpring sandbox] unreadable popup event',
  framed: 'close-buttons',
});
