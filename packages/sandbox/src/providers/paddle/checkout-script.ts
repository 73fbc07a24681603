/**
 * `checkout.js`, the checkout page's only script (the page's CSP allows same-origin scripts only, no
 * inline code): posts the page's event (a JSON data block) to the Paddle.js host page when framed,
 * relays Escape as "close", hides the success link when framed (Paddle.js redirects the host page),
 * groups the card number, and stops double submits.
 */
export const CHECKOUT_SCRIPT = `(function () {
  'use strict';
  var SOURCE = 'paddle-sandbox-checkout';
  var framed = window.parent !== window;
  var parentOrigin = document.body.getAttribute('data-parent-origin') || '';
  function post(message) {
    if (!framed || !parentOrigin) return;
    message.source = SOURCE;
    window.parent.postMessage(message, parentOrigin);
  }
  var block = document.getElementById('paddle-event');
  if (block) {
    try {
      var event = JSON.parse(block.textContent || 'null');
      if (event && typeof event.name === 'string') post({ name: event.name, data: event.data || {} });
    } catch (e) {
      console.error('[Paddle sandbox] unreadable checkout event', e);
    }
  }
  if (framed) {
    var links = document.querySelectorAll('[data-unframed]');
    for (var i = 0; i < links.length; i++) links[i].hidden = true;
  }
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
