import type { FastifyReply } from 'fastify';

/** Adds `name` to the reply's Vary header unless it is there already. */
export function addVary(reply: FastifyReply, name: string): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', name);
  else if (!String(vary).toLowerCase().split(/\s*,\s*/).includes(name.toLowerCase())) reply.header('vary', `${String(vary)}, ${name}`);
}
