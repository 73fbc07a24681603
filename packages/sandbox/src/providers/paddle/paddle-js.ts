import { dialogScript } from '../../kit/dialog-script';

/**
 * The stand-in for Paddle.js v2 (`GET /paddle.js`). It knows its own address from its `<script src>`
 * (document.currentScript), so it works behind any host, and opens this stand-in's `/checkout` in an
 * overlay. The expected client-side token is written into the script (client-side tokens are public:
 * they only open checkouts); a different token is reported on the console and the checkout refused
 * (the checkout page refuses it too).
 */
export function paddleJs(clientToken: string): string {
  const expected = JSON.stringify(clientToken).replace(/[<>\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `/* Paddle.js v2 stand-in (Paddle sandbox): Environment.set, Initialize, Update, Checkout.open/close */
(function () {
  'use strict';
  var PREFIX = '[Paddle sandbox] ';
  if (window.Paddle && window.Paddle.__sandbox) {
    console.warn(PREFIX + 'paddle.js is loaded twice: the first copy stays in use.');
    return;
  }
  var EXPECTED_TOKEN = ${expected};
  var SOURCE = 'paddle-sandbox-checkout';
  var EVENTS = ['checkout.loaded', 'checkout.completed', 'checkout.payment.failed'];
  var script = document.currentScript;
  var src = script && script.src ? script.src : '';
  if (!src) {
    console.error(PREFIX + 'load paddle.js with a <script src="…/paddle.js"> tag: it finds the checkout next to itself.');
    return;
  }
  var base = src.replace(/[?#].*$/, '').replace(/\\/paddle\\.js$/, '');
  var origin = new URL(base).origin;
  var environment = 'production';
  var settings = { token: null, eventCallback: null, pwCustomer: null, checkout: {} };
  var overlay = null;

  function emit(name, data) {
    var callback = settings.eventCallback;
    if (typeof callback !== 'function') return;
    try {
      callback({ name: name, data: data || {} });
    } catch (e) {
      console.error(PREFIX + 'eventCallback threw', e);
    }
  }

  function tokenProblem() {
    var token = settings.token;
    if (token !== EXPECTED_TOKEN) return 'the client-side token given to Paddle.Initialize() does not match this sandbox\\'s token.';
    if (/^test_/.test(token) && environment !== 'sandbox') return 'a test_ token needs Paddle.Environment.set("sandbox") first.';
    if (/^live_/.test(token) && environment === 'sandbox') return 'a live_ token cannot be used with Paddle.Environment.set("sandbox").';
    return null;
  }

  function merge(target, source) {
    var out = {};
    var k;
    for (k in target) if (Object.prototype.hasOwnProperty.call(target, k)) out[k] = target[k];
    if (source) for (k in source) if (Object.prototype.hasOwnProperty.call(source, k)) out[k] = source[k];
    return out;
  }

${dialogScript({ marker: ['data-paddle-sandbox', 'overlay'], frameName: 'paddle_sandbox_checkout' })}
  function close(silent) {
    if (!overlay) return;
    var o = overlay;
    overlay = null;
    document.removeEventListener('keydown', o.onKey, true);
    if (o.root.parentNode) o.root.parentNode.removeChild(o.root);
    document.documentElement.style.overflow = o.overflow;
    if (o.previousFocus && typeof o.previousFocus.focus === 'function' && document.contains(o.previousFocus)) o.previousFocus.focus();
    if (!silent) emit('checkout.closed', o.lastData || {});
  }

  function open(options) {
    if (!Paddle.Initialized) {
      console.error(PREFIX + 'call Paddle.Initialize({ token }) before Paddle.Checkout.open().');
      return;
    }
    var problem = tokenProblem();
    if (problem) {
      console.error(PREFIX + 'checkout refused: ' + problem);
      return;
    }
    options = options || {};
    var checkoutSettings = merge(settings.checkout.settings || {}, options.settings);
    if (checkoutSettings.displayMode && checkoutSettings.displayMode !== 'overlay') {
      console.warn(PREFIX + 'only displayMode "overlay" is supported; opening an overlay.');
    }
    var q = new URLSearchParams();
    if (options.transactionId) {
      q.set('txn', String(options.transactionId));
    } else {
      var items = options.items;
      if (!Array.isArray(items) || items.length === 0) {
        console.error(PREFIX + 'Paddle.Checkout.open() needs items: [{ priceId, quantity }] or a transactionId.');
        return;
      }
      q.set('items', JSON.stringify(items.map(function (i) {
        return { priceId: i && i.priceId, quantity: i && i.quantity != null ? i.quantity : 1 };
      })));
    }
    if (options.customData) q.set('custom_data', JSON.stringify(options.customData));
    var email = options.customer && options.customer.email;
    if (email) q.set('email', String(email));
    var successUrl = null;
    if (checkoutSettings.successUrl) {
      try {
        var u = new URL(String(checkoutSettings.successUrl), window.location.href);
        if (u.protocol === 'http:' || u.protocol === 'https:') successUrl = u.href;
      } catch (e) {
        successUrl = null;
      }
      if (successUrl) q.set('success_url', successUrl);
      else console.warn(PREFIX + 'settings.successUrl is not an http(s) URL: ignored.');
    }
    q.set('token', settings.token);
    q.set('parent_origin', window.location.origin);
    close(true);

    var dialog = buildDialog(base + '/checkout?' + q.toString(), function () { close(false); });
    var root = dialog.root;
    var frame = dialog.frame;
    var closeButton = dialog.closeButton;

    var onKey = function (e) {
      if (!overlay) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        close(false);
      }
    };
    overlay = {
      root: root, frame: frame, onKey: onKey, successUrl: successUrl, lastData: null,
      previousFocus: document.activeElement, overflow: document.documentElement.style.overflow
    };
    document.addEventListener('keydown', onKey, true);
    document.documentElement.style.overflow = 'hidden';
    document.body.appendChild(root);
    closeButton.focus();
    frame.addEventListener('load', function () {
      if (overlay && overlay.frame === frame) frame.focus();
    });
  }

  window.addEventListener('message', function (e) {
    if (!overlay || e.origin !== origin || e.source !== overlay.frame.contentWindow) return;
    var m = e.data;
    if (!m || typeof m !== 'object' || m.source !== SOURCE) return;
    if (m.action === 'close') {
      close(false);
      return;
    }
    if (EVENTS.indexOf(m.name) === -1) return;
    overlay.lastData = m.data || {};
    emit(m.name, overlay.lastData);
    if (m.name === 'checkout.completed' && overlay.successUrl) {
      var target = overlay.successUrl;
      setTimeout(function () { window.location.assign(target); }, 1200);
    }
  });

  var Paddle = {
    __sandbox: true,
    Initialized: false,
    Environment: {
      set: function (env) {
        if (env !== 'sandbox' && env !== 'production') console.warn(PREFIX + 'unknown environment "' + env + '" (sandbox or production).');
        environment = env;
      }
    },
    Initialize: function (options) {
      if (Paddle.Initialized) {
        console.warn(PREFIX + 'Paddle.Initialize() runs once per page: call Paddle.Update() to change settings.');
        return;
      }
      if (!options || typeof options.token !== 'string' || options.token === '') {
        console.error(PREFIX + 'Paddle.Initialize() needs { token: "<client-side token>" }.');
        return;
      }
      settings.token = options.token;
      settings.eventCallback = typeof options.eventCallback === 'function' ? options.eventCallback : null;
      settings.pwCustomer = options.pwCustomer || null;
      settings.checkout = options.checkout || {};
      Paddle.Initialized = true;
      var problem = tokenProblem();
      if (problem) console.error(PREFIX + problem + ' Checkouts will be refused.');
    },
    Update: function (options) {
      if (!Paddle.Initialized) {
        console.error(PREFIX + 'call Paddle.Initialize() before Paddle.Update().');
        return;
      }
      options = options || {};
      if (options.token && options.token !== settings.token) console.warn(PREFIX + 'Paddle.Update() cannot change the token.');
      if ('eventCallback' in options) settings.eventCallback = typeof options.eventCallback === 'function' ? options.eventCallback : null;
      if ('pwCustomer' in options) settings.pwCustomer = options.pwCustomer || null;
      if (options.checkout) settings.checkout = merge(settings.checkout, options.checkout);
    },
    Checkout: {
      open: open,
      close: function () { close(false); }
    },
    Status: { libraryVersion: 'sandbox' }
  };
  window.Paddle = Paddle;
})();
`;
}
