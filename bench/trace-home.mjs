// @ts-check
/**
 * A Chromium performance trace of a page's load under Lighthouse's mobile CPU throttling (4x), to
 * see what a long task is: the renderer main thread's tasks of 50 ms or more, each with the work in
 * it by kind (script with its URL, style, layout, parse, paint), and the requests made.
 * `node bench/trace-home.mjs [path] [--url base] [--user ava]` (default `/` on a fresh bench server,
 * a visitor; `--user` signs that demo user in first, e.g. for `/dashboard/<server>/configs`);
 * TRACE_RUNS (1) repeats it; TRACE_OUT=file.json writes the last raw trace (chrome://tracing).
 */
import { writeFileSync } from 'node:fs';
import { launchChromium, signInContext, startServer } from './lib.mjs';

const args = process.argv.slice(2);
const urlFlag = args.indexOf('--url');
const base = urlFlag >= 0 ? args[urlFlag + 1] : undefined;
const userFlag = args.indexOf('--user');
const user = userFlag >= 0 ? /** @type {import('@tickety/e2e/session').DemoUserKey} */ (args[userFlag + 1]) : undefined;
const path = args.find((arg, index) => !arg.startsWith('--') && args[index - 1] !== '--url' && args[index - 1] !== '--user') ?? '/';
const RUNS = Number(process.env.TRACE_RUNS ?? 1);

/** Trace event names, by the kind of work they are. */
const KINDS = /** @type {Record<string, string>} */ ({
  EvaluateScript: 'script',
  FunctionCall: 'script',
  TimerFire: 'script',
  EventDispatch: 'script',
  FireIdleCallback: 'script',
  FireAnimationFrame: 'script',
  'v8.compile': 'compile',
  'v8.compileModule': 'compile',
  ParseHTML: 'parse html',
  ParseAuthorStyleSheet: 'parse css',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  'Decode Image': 'image',
  ResourceReceivedData: 'network',
  ResourceFinish: 'network',
});

/**
 * @param {any[]} events
 * @param {number} navigationStart µs
 */
function longTasks(events, navigationStart) {
  // The page's renderer only (Chromium's own pages run in others).
  const pid = events.find((e) => e.name === 'navigationStart' && e.ts === navigationStart)?.pid;
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === pid).map((e) => `${e.pid}:${e.tid}`));
  const onMain = events.filter((e) => mains.has(`${e.pid}:${e.tid}`) && e.ph === 'X' && e.ts >= navigationStart);
  const tasks = onMain.filter((e) => (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.dur >= 50_000);
  return tasks.map((task) => {
    const inside = onMain.filter((e) => e !== task && e.pid === task.pid && e.tid === task.tid && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur && KINDS[e.name]);
    // Only the outermost event of each kind: nested ones are counted in their parent.
    const outer = inside.filter((e) => !inside.some((o) => o !== e && KINDS[o.name] === KINDS[e.name] && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur && (o.ts < e.ts || o.dur > e.dur)));
    /** @type {Record<string, number>} */
    const byKind = {};
    for (const e of outer) {
      const what = e.args?.data?.url || e.args?.data?.functionName || e.args?.data?.type || '';
      const key = `${KINDS[e.name]}${KINDS[e.name] === 'script' && what ? ` ${String(what).replace(/^https?:\/\/[^/]+/, '').slice(0, 60)}` : ''}`;
      byKind[key] = (byKind[key] ?? 0) + e.dur / 1000;
    }
    return { start: Math.round((task.ts - navigationStart) / 1000), duration: Math.round(task.dur / 1000), byKind };
  });
}

const server = base ? undefined : await startServer();
const origin = base ?? server?.url;
try {
  for (let run = 1; run <= RUNS; run++) {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, deviceScaleFactor: 1.75 });
      if (user) await signInContext(context, String(origin), user);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      /** @type {string[]} */
      const requests = [];
      page.on('request', (request) => requests.push(request.url().replace(/^https?:\/\/[^/]+/, '')));
      /** @type {any[]} */
      const events = [];
      cdp.on('Tracing.dataCollected', (data) => events.push(...data.value));
      const done = new Promise((ok) => cdp.once('Tracing.tracingComplete', ok));
      await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,v8,blink.user_timing,loading', transferMode: 'ReportEvents' });
      const before = Date.now();
      await page.goto(`${origin}${path}`, { waitUntil: 'load' });
      // Lighthouse waits for a quiet main thread and network; ten seconds covers the idle reads.
      await page.waitForTimeout(10_000);
      await cdp.send('Tracing.end');
      await done;
      const navigation = events.find((e) => e.name === 'navigationStart' && String(e.args?.data?.documentLoaderURL ?? '').startsWith(String(origin)));
      const navigationStart = navigation?.ts ?? 0;
      const paint = events.find((e) => e.name === 'firstContentfulPaint' && e.ts >= navigationStart);
      console.log(`run ${run}: ${origin}${path} (${Date.now() - before} ms wall), first contentful paint at ${paint ? Math.round((paint.ts - navigationStart) / 1000) : '?'} ms`);
      for (const task of longTasks(events, navigationStart)) {
        const parts = Object.entries(task.byKind).sort((a, b) => b[1] - a[1]).map(([kind, ms]) => `${kind} ${Math.round(ms)}`);
        console.log(`  task at ${task.start} ms, ${task.duration} ms: ${parts.join(', ')}`);
      }
      console.log(`  requests: ${requests.join(' ')}`);
      if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, JSON.stringify({ traceEvents: events }));
    } finally {
      await browser.close();
    }
  }
} finally {
  await server?.stop();
}
