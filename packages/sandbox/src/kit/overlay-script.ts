/** How a stand-in's checkout page speaks to the page that frames it (each value is a constant of the stand-in). */
export interface OverlayScriptOptions {
  /** The `source` of every message posted to the framing page (its SDK ignores other sources). */
  source: string;
  /** The id of the page's JSON data block holding the event to post (`{ name, data }`). */
  eventBlockId: string;
  /** The console line when that block cannot be read. */
  unreadableEvent: string;
  /**
   * `hide-links`: elements marked `data-unframed` are hidden when framed (the SDK redirects the host page).
   * `close-buttons`: elements marked `data-close` post "close" when clicked and are hidden when not framed.
   */
  framed: 'hide-links' | 'close-buttons';
}

const FRAMED_PARTS: Record<OverlayScriptOptions['framed'], string> = {
  'hide-links': `  if (framed) {
    var links = document.querySelectorAll('[data-unframed]');
    for (var i = 0; i < links.length; i++) links[i].hidden = true;
  }`,
  'close-buttons': `  var closers = document.querySelectorAll('[data-close]');
  for (var i = 0; i < closers.length; i++) {
    if (!framed) closers[i].hidden = true;
    closers[i].addEventListener('click', function () { post({ action: 'close' }); });
  }`,
};

/**
 * The only script of a stand-in's checkout page (the page's CSP allows same-origin scripts only, no
 * inline code): posts the page's event to the framing page, relays Escape as "close", groups the card
 * number and stops double submits.
 */
export function overlayScript(options: OverlayScriptOptions): string {
  return `(function () {
  'use strict';
  var SOURCE = ${JSON.stringify(options.source)};
  var framed = window.parent !== window;
  var parentOrigin = document.body.getAttribute('data-parent-origin') || '';
  function post(message) {
    if (!framed || !parentOrigin) return;
    message.source = SOURCE;
    window.parent.postMessage(message, parentOrigin);
  }
  var block = document.getElementById(${JSON.stringify(options.eventBlockId)});
  if (block) {
    try {
      var event = JSON.parse(block.textContent || 'null');
      if (event && typeof event.name === 'string') post({ name: event.name, data: event.data || {} });
    } catch (e) {
      console.error(${JSON.stringify(options.unreadableEvent)}, e);
    }
  }
${FRAMED_PARTS[options.framed]}
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') post({ action: 'close' });
  });
  var card = document.getElementById('card_number');
  if (card) {
    card.addEventListener('blur', function () {
      var digits = card.value.replace(/[^0-9]/g, '');
      if (/^[0-9]{12,19}$/.test(digits)) card.value = digits.replace(/([0-9]{4})(?=[0-9])/g, '$1 ');
    });
  }
  var form = document.getElementById('pay');
  if (form) {
    var sent = false;
    form.addEventListener('submit', function (e) {
      if (sent) {
        e.preventDefault();
        return;
      }
      sent = true;
      var button = form.querySelector('button[type=submit]');
      if (button) {
        button.setAttribute('aria-disabled', 'true');
        button.textContent = 'Processing…';
      }
    });
  }
  var summary = document.getElementById('problems');
  if (summary) summary.focus();
})();
`;
}
