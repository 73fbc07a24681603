// @ts-check
/**
 * A round-robin HTTP balancer for benches and tests (docs/operations.md, Several demo instances): each
 * request goes to the next upstream, no sticky sessions. node:http with keep-alive agents; the method,
 * path, headers (Host too) and body go through untouched but for the hop-by-hop headers, and it adds
 * X-Forwarded-For (the client's address appended) and X-Forwarded-Proto (http unless sent). An
 * unreachable upstream answers 502; no WebSocket upgrades.
 *   const balancer = await startBalancer({ upstreams: [3001, 3002], port: 8080 }); // port 0: a free one
 *   balancer.url; balancer.counts; await balancer.close(); // counts: requests per upstream, in order
 *   node bench/balancer.mjs [--port 8080] [--host 127.0.0.1] 3001 3002 http://10.0.0.5:3000
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';

/** Headers that describe one connection, not the request (RFC 9110, 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** @param {import('node:http').IncomingHttpHeaders} headers */
function endToEnd(headers) {
  /** @type {import('node:http').OutgoingHttpHeaders} */
  const kept = {};
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.includes(name)) kept[name] = value;
  }
  return kept;
}

/** @param {number | string} upstream a port on 127.0.0.1, or an http:// origin */
function originOf(upstream) {
  const url = new URL(typeof upstream === 'number' || /^\d+$/.test(upstream) ? `http://127.0.0.1:${upstream}` : upstream);
  if (url.protocol !== 'http:') throw new RangeError(`balancer: upstreams are http:// origins or ports, not ${upstream}`);
  return url;
}

/**
 * Starts the balancer; resolves once it listens.
 * @param {{ upstreams: (number | string)[], port?: number, host?: string }} options port 0 (default): a free one
 * @returns {Promise<{ url: string, port: number, counts: number[], close(): Promise<void> }>}
 */
export async function startBalancer({ upstreams, port = 0, host = '127.0.0.1' }) {
  if (upstreams.length === 0) throw new RangeError('balancer: at least one upstream');
  const targets = upstreams.map((upstream) => ({ origin: originOf(upstream), agent: new http.Agent({ keepAlive: true, maxSockets: 256 }) }));
  const counts = targets.map(() => 0);
  let turn = 0;
  const server = http.createServer((req, res) => {
    const index = turn++ % targets.length;
    counts[index] = (counts[index] ?? 0) + 1;
    const target = /** @type {(typeof targets)[number]} */ (targets[index]);
    const headers = endToEnd(req.headers);
    const client = req.socket.remoteAddress ?? '';
    headers['x-forwarded-for'] = req.headers['x-forwarded-for'] ? `${req.headers['x-forwarded-for']}, ${client}` : client;
    headers['x-forwarded-proto'] = req.headers['x-forwarded-proto'] ?? 'http';
    const upstream = http.request(
      { host: target.origin.hostname, port: target.origin.port, method: req.method, path: req.url, headers, agent: target.agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (res.headersSent) res.destroy(error);
      else res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end(`balancer: upstream ${target.origin.host}: ${error.message}\n`);
    });
    // A client that goes away ends its upstream request too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}`,
    port: address.port,
    counts,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
        for (const target of targets) target.agent.destroy();
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  /** @param {string} name */
  const option = (name) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args.splice(at, 2)[1];
  };
  const port = Number(option('--port') ?? 8080);
  const host = option('--host') ?? '127.0.0.1';
  if (args.length === 0) {
    console.error('usage: node bench/balancer.mjs [--port 8080] [--host 127.0.0.1] <port|http://host:port>...');
    process.exit(64);
  }
  const balancer = await startBalancer({ upstreams: args, port, host });
  console.log(`balancer: ${balancer.url} → ${args.join(', ')} (round robin)`);
  const stop = async () => {
    await balancer.close();
    console.log(`balancer: requests per upstream ${balancer.counts.join(', ')}`);
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
