// @ts-check
/**
 * The v2 transcript viewer with the demo bot's 50,000-message ticket, in Chromium (Ava on Ava's
 * Arcade; the built all-in-one server with the demo bot on, which uploads it):
 * 1. first paint: from the head's arrival (`?part=head`, its `responseEnd`) to the first frame after
 *    its messages are in the DOM. Target: <= 500 ms. Also the whole transcript ready (search enabled)
 *    after its data arrived, with its parts (inflate and decode, JSON.parse, state and render).
 * 2. a search: from the keystroke's input event to the frame after the match count changed. Target:
 *    <= 50 ms. VIEWER_RUNS (default 5) page loads and SEARCHES (default 10) queries; medians and the
 *    worst are printed, nothing is asserted. What each step covers: docs/architecture.md, "Tests".
 */
import { launchChromium, median, signIn, signInContext, startServer, table } from './lib.mjs';

const ARCADE = '1100000000000000001';
const RUNS = Number(process.env.VIEWER_RUNS ?? 5);
const QUERIES = ['order', 'in-game name', 'refund', 'cache', 'patch notes', 'AA-12345', 'inventory', 'nothing like this anywhere', 'thank', 'help'];
const SEARCHES = Number(process.env.SEARCHES ?? QUERIES.length);

const server = await startServer({ env: { DEMO_BOT: 'on' } });
const browser = await launchChromium();
try {
  // The demo bot uploads its transcripts within seconds of start-up: wait for the 50,000-message one.
  const jar = await signIn(server.url, 'ava');
  /** @type {{ fileId: string, messages: number } | undefined} */
  let long;
  for (const until = Date.now() + 120_000; !long && Date.now() < until; ) {
    for (let cursor = /** @type {string | null} */ (''); cursor !== null && !long; ) {
      const res = await fetch(`${server.url}/api/guilds/${ARCADE}/transcripts${cursor ? `?cursor=${cursor}` : ''}`, { headers: { cookie: jar.header() } });
      if (res.status !== 200) break;
      const list = /** @type {{ items: Array<{ fileId: string, messages: number }>, nextCursor: string | null }} */ (await res.json());
      long = list.items.find((transcript) => transcript.messages >= 50_000);
      cursor = list.nextCursor;
    }
    if (!long) await new Promise((ok) => setTimeout(ok, 1000));
  }
  if (!long) throw new Error('the demo bot did not upload its 50,000-message transcript within two minutes');

  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
  await signInContext(context, server.url, 'ava');
  // In the page: when the first messages reach the DOM (and the frame after), and when a search's count changes.
  await context.addInitScript(() => {
    const pageWindow = /** @type {any} */ (window);
    pageWindow.__tk = { painted: 0, ready: 0, input: 0, searched: 0, parseAt: 0, parsed: 0 };
    // Where the time goes: JSON.parse of the large body (what comes before it is inflating and decoding).
    const parse = JSON.parse;
    JSON.parse = (source, reviver) => {
      const started = performance.now();
      const value = parse(source, reviver);
      if (typeof source === 'string' && source.length > 1_000_000) {
        pageWindow.__tk.parseAt = started;
        pageWindow.__tk.parsed = performance.now();
      }
      return value;
    };
    document.addEventListener(
      'input',
      () => {
        pageWindow.__tk.input = performance.now();
      },
      true,
    );
    new MutationObserver(() => {
      if (!pageWindow.__tk.painted && document.querySelector('article[id^="m-"]')) {
        pageWindow.__tk.painted = -1;
        requestAnimationFrame(() => {
          pageWindow.__tk.painted = performance.now();
        });
      }
      if (!pageWindow.__tk.ready && document.querySelector('input[type="search"]:not([disabled])')) {
        pageWindow.__tk.ready = -1;
        requestAnimationFrame(() => {
          pageWindow.__tk.ready = performance.now();
        });
      }
      const status = [...document.querySelectorAll('[role="status"]')].find((s) => / of |No match/.test(s.textContent ?? ''));
      const text = status?.textContent ?? '';
      if (pageWindow.__tk.input && text && text !== pageWindow.__tk.lastStatus) {
        pageWindow.__tk.lastStatus = text;
        const input = pageWindow.__tk.input;
        requestAnimationFrame(() => {
          pageWindow.__tk.searched = performance.now() - input;
        });
      }
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['disabled'] });
  });

  const paints = [];
  /** @type {number[]} */
  const totals = [];
  /** @type {number[]} */
  const readies = [];
  /** @type {number[]} */
  const readyTotals = [];
  /** @type {Array<{ text: number, parse: number, render: number }>} */
  const phases = [];
  const downloads = [];
  const searches = [];
  for (let run = 0; run < RUNS; run++) {
    const page = await context.newPage();
    await page.goto(`/transcript/v2/${ARCADE}/${long.fileId}`);
    await page.waitForFunction(() => /** @type {any} */ (window).__tk.painted > 0 && /** @type {any} */ (window).__tk.ready > 0, null, { timeout: 60_000 });
    const figures = await page.evaluate(() => {
      const entries = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/transcripts/v2/') && !e.name.includes('/attachments/')));
      const head = entries.find((e) => e.name.includes('part=head'));
      const whole = entries.find((e) => !e.name.includes('part=head'));
      const tk = /** @type {any} */ (window).__tk;
      return {
        requested: head?.startTime ?? Number.NaN,
        headArrived: head?.responseEnd ?? Number.NaN,
        headBytes: head?.encodedBodySize ?? 0,
        arrived: whole?.responseEnd ?? Number.NaN,
        fetched: whole ? whole.responseEnd - whole.requestStart : Number.NaN,
        bytes: whole?.encodedBodySize ?? 0,
        painted: tk.painted,
        ready: tk.ready,
        parseAt: tk.parseAt,
        parsed: tk.parsed,
      };
    });
    paints.push(figures.painted - figures.headArrived);
    totals.push(figures.painted - figures.requested);
    readies.push(figures.ready - figures.arrived);
    readyTotals.push(figures.ready - figures.requested);
    phases.push({ text: figures.parseAt - figures.arrived, parse: figures.parsed - figures.parseAt, render: figures.ready - figures.parsed });
    downloads.push({ ms: figures.fetched, bytes: figures.bytes, headBytes: figures.headBytes });
    if (run === 0) {
      const search = page.getByRole('searchbox', { name: 'Search this transcript' });
      for (const query of QUERIES.slice(0, SEARCHES)) {
        await search.fill('');
        await page.evaluate(() => {
          const pageWindow = /** @type {any} */ (window);
          pageWindow.__tk.searched = 0;
          pageWindow.__tk.input = 0;
          pageWindow.__tk.lastStatus = '';
        });
        await search.fill(query);
        await page.waitForFunction(() => /** @type {any} */ (window).__tk.searched > 0, null, { timeout: 10_000 });
        searches.push({ query, ms: await page.evaluate(() => /** @type {any} */ (window).__tk.searched), count: await page.getByRole('status').filter({ hasText: / of |No match/ }).textContent() });
      }
    }
    await page.close();
  }

  console.log(
    `The 50,000-message transcript (${long.messages.toLocaleString('en')} messages; head ${(downloads[0].headBytes / 1024).toFixed(1)} KB as sent; whole ${(downloads[0].bytes / 1024 / 1024).toFixed(1)} MB as sent, fetched in ${Math.round(median(downloads.map((d) => d.ms)))} ms median on loopback)\n`,
  );
  table(
    ['figure', 'median ms', 'worst ms', 'target ms'],
    [
      ['first paint after the click (request, head, paint)', Math.round(median(totals)), Math.round(Math.max(...totals)), ''],
      ['first paint after the head arrived', Math.round(median(paints)), Math.round(Math.max(...paints)), '<= 500'],
      ['whole transcript ready (search) after the click', Math.round(median(readyTotals)), Math.round(Math.max(...readyTotals)), ''],
      ['whole transcript ready after its data arrived', Math.round(median(readies)), Math.round(Math.max(...readies)), ''],
      ['  of which: body inflated and decoded', Math.round(median(phases.map((p) => p.text))), Math.round(Math.max(...phases.map((p) => p.text))), ''],
      ['  of which: JSON.parse', Math.round(median(phases.map((p) => p.parse))), Math.round(Math.max(...phases.map((p) => p.parse))), ''],
      ['  of which: state, render, paint', Math.round(median(phases.map((p) => p.render))), Math.round(Math.max(...phases.map((p) => p.render))), ''],
      ['a search (input to painted count)', median(searches.map((s) => s.ms)).toFixed(1), Math.max(...searches.map((s) => s.ms)).toFixed(1), '<= 50'],
    ],
  );
  console.log('');
  table(
    ['query', 'ms', 'answer'],
    searches.map((s) => [s.query, s.ms.toFixed(1), s.count ?? '']),
  );
  const ok = median(paints) <= 500 && median(searches.map((s) => s.ms)) <= 50;
  console.log(`\n${ok ? 'Within the targets (medians).' : 'ABOVE a target (medians).'}`);
} finally {
  await browser.close();
  await server.stop();
}
