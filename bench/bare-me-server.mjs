// @ts-check
/**
 * The baseline for api-me.mjs and api-reads.mjs: a bare node:http server answering every request with
 * the same bytes the API sent for one route: BODY (text), or BODY_BASE64 with CONTENT_ENCODING when
 * the API compressed it (the bytes a browser gets). Listens on 127.0.0.1:PORT.
 */
import { createServer } from 'node:http';

const body = process.env.BODY_BASE64 ? Buffer.from(process.env.BODY_BASE64, 'base64') : Buffer.from(process.env.BODY ?? '{}');
/** @type {Record<string, string | number>} */
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length };
if (process.env.CONTENT_ENCODING) headers['content-encoding'] = process.env.CONTENT_ENCODING;
const server = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
