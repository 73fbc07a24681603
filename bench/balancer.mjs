// @ts-check
/**
 * A round-robin HTTP proxy for the benches (what a load balancer does in front of N API instances):
 * each request goes to the next upstream in turn, over keep-alive connections, with its method,
 * path, headers and body; the answer comes back as it is (status, headers, compressed bytes).
 * `startBalancer({ upstreams, port })` resolves to `{ url, close(), counts }`: counts[i] is how many
 * requests upstream i got. It appends the client's address to `x-forwarded-for` like a balancer
 * would; the instances only believe it with TRUST_PROXY.
 */
import { Agent, createServer, request } from 'node:http';

/**
 * @param {{ upstreams: string[], port?: number }} options
 * @returns {Promise<{ url: string, close(): Promise<void>, counts: number[] }>}
 */
export function startBalancer({ upstreams, port = 0 }) {
  if (!upstreams.length) throw new Error('startBalancer: no upstreams');
  const targets = upstreams.map((upstream) => new URL(upstream));
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const counts = targets.map(() => 0);
  let next = 0;
  const server = createServer((req, res) => {
    const index = next;
    next = (next + 1) % targets.length;
    counts[index] = (counts[index] ?? 0) + 1;
    const target = /** @type {URL} */ (targets[index]);
    const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const headers = { ...req.headers, host: target.host, 'x-forwarded-for': forwarded };
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      if (res.headersSent) res.destroy(error);
      else res.writeHead(502, { 'content-type': 'text/plain' }).end(`balancer: upstream ${target.host} failed: ${error.message}`);
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const listening = typeof address === 'object' && address ? address.port : port;
      ok({
        url: `http://127.0.0.1:${listening}`,
        counts,
        close: () =>
          new Promise((done) => {
            agent.destroy();
            server.closeAllConnections();
            server.close(() => done(undefined));
          }),
      });
    });
  });
}
