/**
 * The stand-in for ProfitWell's `profitwell.js` (`GET /profitwell.js?auth=<token>`), the part of its
 * API the dashboard uses: `profitwell('start', { user_id })` or `profitwell('start', { user_email })`.
 * It replaces the page's queueing stub (`window.profitwell`, its calls in `profitwell.q`), replays the
 * queued calls in order, and POSTs each start to the stand-in's `/starts` beside itself (found from
 * its own `<script src>`, so it works behind any host). Other commands are reported on the console
 * and ignored. The POST is a simple `text/plain` request without credentials: no preflight, no
 * cookie, whatever origin the page is on.
 */
export function profitwellJs(token: string): string {
  const expected = JSON.stringify(token).replace(/[<>\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `/* profitwell.js stand-in (ProfitWell sandbox): profitwell('start', { user_id | user_email }) */
(function () {
  'use strict';
  var PREFIX = '[ProfitWell sandbox] ';
  var previous = window.profitwell;
  if (previous && previous.__sandbox) {
    console.warn(PREFIX + 'profitwell.js is loaded twice: the first copy stays in use.');
    return;
  }
  var TOKEN = ${expected};
  var script = document.currentScript;
  var src = script && script.src ? script.src : '';
  if (!src) {
    console.error(PREFIX + 'load profitwell.js with a <script src="…/profitwell.js?auth=…"> tag: it reports next to itself.');
    return;
  }
  var base = src.replace(/[?#].*$/, '').replace(/\\/profitwell\\.js$/, '');
  var tag = document.getElementById('profitwell-js');
  var auth = tag && tag.getAttribute('data-pw-auth');
  if (auth !== TOKEN) console.warn(PREFIX + 'the <script id="profitwell-js"> tag has no data-pw-auth with this account\\'s public token.');

  function text(value) {
    return typeof value === 'string' && value !== '' ? value : null;
  }

  function start(options) {
    var userId = options && text(options.user_id);
    var userEmail = options && text(options.user_email);
    if (options && typeof options.user_id === 'number') userId = String(options.user_id);
    if (!userId && !userEmail) {
      console.error(PREFIX + "profitwell('start', …) needs { user_id } or { user_email }: nothing started.");
      return;
    }
    var body = JSON.stringify({ token: TOKEN, user_id: userId, user_email: userEmail, page: window.location.pathname });
    try {
      var sent = fetch(base + '/starts', { method: 'POST', mode: 'no-cors', credentials: 'omit', headers: { 'content-type': 'text/plain' }, body: body });
      if (sent && typeof sent.catch === 'function') sent.catch(function () { console.warn(PREFIX + 'the start could not be reported.'); });
    } catch (e) {
      console.warn(PREFIX + 'the start could not be reported.');
    }
  }

  function profitwell(command, options) {
    if (command === 'start') start(options);
    else console.info(PREFIX + '"' + String(command) + '" is not part of this stand-in: ignored.');
  }
  profitwell.__sandbox = true;
  window.profitwell = profitwell;

  var queued = previous && previous.q ? previous.q : [];
  for (var i = 0; i < queued.length; i++) {
    var call = queued[i];
    if (call && typeof call.length === 'number') profitwell.apply(null, Array.prototype.slice.call(call));
  }
})();
`;
}
