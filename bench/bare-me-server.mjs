// @ts-check
/**
 * The baseline for api-me.mjs: a bare node:http server answering every request with the same JSON
 * body the API sent for `GET /api/auth/@me` (passed in BODY). Listens on 127.0.0.1:PORT.
 */
import { createServer } from 'node:http';

const body = Buffer.from(process.env.BODY ?? '{}');
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
