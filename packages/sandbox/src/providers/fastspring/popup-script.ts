import { POPUP_SOURCE } from './sbl';

/**
 * `popup.js`, the popup page's only script (its CSP allows same-origin scripts only): posts the page's
 * event (a JSON data block: the order's id and reference once paid) to the builder's page when framed,
 * relays Escape and the "Close" button as "close", groups the card number and stops double submits.
 */
export const POPUP_SCRIPT = `(function () {
  'use strict';
  var SOURCE = ${JSON.stringify(POPUP_SOURCE)};
  var framed = window.parent !== window;
  var parentOrigin = document.body.getAttribute('data-parent-origin') || '';
  function post(message) {
    if (!framed || !parentOrigin) return;
    message.source = SOURCE;
    window.parent.postMessage(message, parentOrigin);
  }
  var block = document.getElementById('fastspring-event');
  if (block) {
    try {
      var event = JSON.parse(block.textContent || 'null');
      if (event && typeof event.name === 'string') post({ name: event.name, data: event.data || {} });
    } catch (e) {
      console.error('[FastSpring sandbox] unreadable popup event', e);
    }
  }
  var closers = document.querySelectorAll('[data-close]');
  for (var i = 0; i < closers.length; i++) {
    if (!framed) closers[i].hidden = true;
    closers[i].addEventListener('click', function () { post({ action: 'close' }); });
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
