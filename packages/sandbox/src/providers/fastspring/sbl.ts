import { dialogScript } from '../../kit/dialog-script';

/** The postMessage `source` of the stand-in's popup page (the builder ignores any other message). */
export const POPUP_SOURCE = 'fastspring-sandbox-popup';

function literal(value: string): string {
  return JSON.stringify(value).replace(/[<>\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The Store Builder Library stand-in (`GET /sbl/fastspring-builder.js`), loaded like the real one
 * (docs/sandbox.md#fastspring): `window.fastspring.builder` opening this stand-in's `/popup` in an
 * accessible modal dialog, and `window[data-popup-closed]` called with the order or null on close.
 */
export function builderJs(storefront: string): string {
  return `/* FastSpring Store Builder Library stand-in (FastSpring sandbox): fastspring.builder push/add/remove/tag/reset/checkout */
(function () {
  'use strict';
  var PREFIX = '[FastSpring sandbox] ';
  if (window.fastspring && window.fastspring.__sandbox) {
    console.warn(PREFIX + 'fastspring-builder.js is loaded twice: the first copy stays in use.');
    return;
  }
  var EXPECTED_STOREFRONT = ${literal(storefront)};
  var SOURCE = ${literal(POPUP_SOURCE)};
  var tag = document.getElementById('fsc-api');
  var current = document.currentScript;
  var src = (current && current.src) || (tag && tag.src) || '';
  if (!src) {
    console.error(PREFIX + 'load the builder with <script id="fsc-api" src=".../sbl/fastspring-builder.js">: it finds the popup next to itself.');
    return;
  }
  if (!tag) console.error(PREFIX + 'the builder\\'s <script> tag needs id="fsc-api" (its data-storefront and data-popup-closed are read from it).');
  var base = src.replace(/[?#].*$/, '').replace(/\\/sbl\\/fastspring-builder(\\.min)?\\.js$/, '');
  var origin = new URL(base).origin;

  function attr(name) {
    var el = tag || current;
    return el && typeof el.getAttribute === 'function' ? el.getAttribute(name) : null;
  }
  function normalize(value) {
    return String(value || '').trim().replace(/^https?:\\/\\//, '').replace(/\\/+$/, '');
  }
  var storefront = attr('data-storefront');
  var popupClosed = attr('data-popup-closed');
  var storefrontProblem = null;
  if (!storefront) storefrontProblem = 'the <script id="fsc-api"> tag has no data-storefront (expected "' + EXPECTED_STOREFRONT + '").';
  else if (normalize(storefront) !== normalize(EXPECTED_STOREFRONT)) {
    storefrontProblem = 'data-storefront "' + storefront + '" does not match this sandbox\\'s storefront "' + EXPECTED_STOREFRONT + '".';
  }
  if (storefrontProblem) console.error(PREFIX + storefrontProblem + ' Checkout is refused.');

  var cart = { products: [], tags: {}, email: null, secure: null };
  var popup = null;

  function find(path) {
    for (var i = 0; i < cart.products.length; i++) if (cart.products[i].path === path) return i;
    return -1;
  }
  function setQuantity(path, quantity) {
    if (typeof path !== 'string' || path === '') {
      console.error(PREFIX + 'a product needs a path (a string).');
      return;
    }
    var q = quantity == null ? 1 : Number(quantity);
    if (!(q >= 0 && Math.floor(q) === q)) {
      console.error(PREFIX + 'the quantity of "' + path + '" must be a whole number, not ' + quantity + '.');
      return;
    }
    var at = find(path);
    if (q === 0) {
      if (at !== -1) cart.products.splice(at, 1);
      return;
    }
    if (at === -1) cart.products.push({ path: path, quantity: q });
    else cart.products[at].quantity = q;
  }
  function merge(tags) {
    if (!tags || typeof tags !== 'object' || Array.isArray(tags)) {
      console.error(PREFIX + 'tags must be an object of { key: value }.');
      return;
    }
    for (var k in tags) if (Object.prototype.hasOwnProperty.call(tags, k)) cart.tags[k] = tags[k];
  }

  function notifyClosed(result) {
    if (!popupClosed) return;
    var fn = window[popupClosed];
    if (typeof fn !== 'function') {
      console.warn(PREFIX + 'data-popup-closed names "' + popupClosed + '", which is not a function on window.');
      return;
    }
    try {
      fn(result);
    } catch (e) {
      console.error(PREFIX + 'the data-popup-closed callback threw', e);
    }
  }

${dialogScript({ marker: ['data-fastspring-sandbox', 'popup'], frameName: 'fastspring_sandbox_popup' })}
  function close() {
    if (!popup) return;
    var p = popup;
    popup = null;
    document.removeEventListener('keydown', p.onKey, true);
    if (p.root.parentNode) p.root.parentNode.removeChild(p.root);
    document.documentElement.style.overflow = p.overflow;
    if (p.previousFocus && typeof p.previousFocus.focus === 'function' && document.contains(p.previousFocus)) p.previousFocus.focus();
    notifyClosed(p.order ? { id: p.order.id, reference: p.order.reference } : null);
  }

  function checkout() {
    if (storefrontProblem) {
      console.error(PREFIX + 'checkout refused: ' + storefrontProblem);
      return;
    }
    if (cart.products.length === 0 && !cart.secure) {
      console.error(PREFIX + 'checkout refused: the cart is empty (fastspring.builder.add(path), push({ products: [{ path, quantity }] }) or secure(payload, key) first).');
      return;
    }
    if (popup) close();
    var q = new URLSearchParams();
    q.set('storefront', storefront);
    q.set('products', JSON.stringify(cart.products));
    q.set('tags', JSON.stringify(cart.tags));
    if (cart.email) q.set('email', cart.email);
    // The store's encrypted session: the checkout decrypts it with the store's public key.
    if (cart.secure) {
      q.set('secure_payload', cart.secure.payload);
      q.set('secure_key', cart.secure.key);
    }
    q.set('parent_origin', window.location.origin);

    var dialog = buildDialog(base + '/popup?' + q.toString(), function () { close(); });
    var root = dialog.root;
    var frame = dialog.frame;
    var closeButton = dialog.closeButton;
    var onKey = function (e) {
      if (popup && e.key === 'Escape') {
        e.preventDefault();
        close();
      }
    };
    popup = { root: root, frame: frame, onKey: onKey, order: null, previousFocus: document.activeElement, overflow: document.documentElement.style.overflow };
    document.addEventListener('keydown', onKey, true);
    document.documentElement.style.overflow = 'hidden';
    document.body.appendChild(root);
    closeButton.focus();
    frame.addEventListener('load', function () {
      if (popup && popup.frame === frame) frame.focus();
    });
  }

  window.addEventListener('message', function (e) {
    if (!popup || e.origin !== origin || e.source !== popup.frame.contentWindow) return;
    var m = e.data;
    if (!m || typeof m !== 'object' || m.source !== SOURCE) return;
    if (m.action === 'close') {
      close();
      return;
    }
    if (m.name === 'order.complete' && m.data && typeof m.data.id === 'string' && typeof m.data.reference === 'string') {
      popup.order = { id: m.data.id, reference: m.data.reference };
      // The cart is spent: the next checkout starts empty (tags stay, like a session's).
      cart.products = [];
      cart.secure = null;
    }
  });

  var builder = {
    push: function (request) {
      if (!request || typeof request !== 'object') {
        console.error(PREFIX + 'fastspring.builder.push() takes an object such as { products: [{ path, quantity }], tags: {}, checkout: true }.');
        return;
      }
      if (request.reset) builder.reset();
      if (request.products != null) {
        if (!Array.isArray(request.products)) console.error(PREFIX + 'products must be an array of { path, quantity }.');
        else for (var i = 0; i < request.products.length; i++) {
          var p = request.products[i] || {};
          setQuantity(p.path, p.quantity);
        }
      }
      if (request.tags != null) merge(request.tags);
      if (request.paymentContact && typeof request.paymentContact.email === 'string') cart.email = request.paymentContact.email;
      if (request.checkout) checkout();
    },
    add: function (path) {
      var at = find(path);
      setQuantity(path, at === -1 ? 1 : cart.products[at].quantity + 1);
    },
    remove: function (path) {
      setQuantity(path, 0);
    },
    tag: function (key, value) {
      if (typeof key === 'string') {
        var one = {};
        one[key] = value;
        merge(one);
      } else merge(key);
    },
    reset: function () {
      cart = { products: [], tags: {}, email: null, secure: null };
    },
    /**
     * The store's session, encrypted by its server: securePayload (the AES-128-ECB encrypted JSON,
     * base64) and secureKey (its AES key encrypted with the store's RSA private key, base64). Only
     * encrypted payloads are taken (a live store's rule; FastSpring's test stores also take a plain object).
     */
    secure: function (payload, key) {
      if (typeof payload !== 'string' || payload === '' || typeof key !== 'string' || key === '') {
        console.error(PREFIX + 'fastspring.builder.secure(securePayload, secureKey) takes the encrypted payload and its encrypted key, both base64 strings; this sandbox takes no unencrypted payload.');
        return;
      }
      cart.secure = { payload: payload, key: key };
    },
    checkout: function () {
      checkout();
    }
  };
  window.fastspring = {
    __sandbox: true,
    builder: builder,
    /** For debugging: what checkout() would send. */
    cart: function () { return JSON.parse(JSON.stringify(cart)); },
    close: close
  };
})();
`;
}
