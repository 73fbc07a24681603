// @ts-check
/**
 * The framework's floor for api-reads.mjs: Fastify (the API's version) with @fastify/cookie, answering
 * the very bytes the API sent (BODY_BASE64, CONTENT_ENCODING) after the least a signed-in read must
 * do: parse the cookies and find the session (SESSION_COOKIE "name=value") in an in-process Map.
 * Anything else answers 401. Listens on 127.0.0.1:PORT. The gap between this and bare-me-server.mjs is
 * what the framework costs on this machine; the gap between the API and this is ours.
 */
import cookie from '@fastify/cookie';
import Fastify from 'fastify';

const body = Buffer.from(process.env.BODY_BASE64 ?? '', 'base64');
const [cookieName = '', cookieValue = ''] = (process.env.SESSION_COOKIE ?? '').split(/=(.*)/s);
const sessions = new Map([[cookieValue, { user: 'ava' }]]);
const app = Fastify({ logger: false });
await app.register(cookie);
app.get('/*', (req, reply) => {
  const session = sessions.get(req.cookies[cookieName] ?? '');
  if (!session) return reply.code(401).send({ error: 'signed out' });
  reply.header('content-type', 'application/json; charset=utf-8');
  if (process.env.CONTENT_ENCODING) reply.header('content-encoding', process.env.CONTENT_ENCODING);
  return reply.send(body);
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
