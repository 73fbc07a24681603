import type { ConfigActor } from '@tickety/api-contract';
import type { FastifyRequest } from 'fastify';
import { ApiHttpError } from './errors';

/** The signed-in user as Web Logs and the version list name them. */
export async function actorOf(req: FastifyRequest): Promise<ConfigActor> {
  const session = await req.getSession();
  const me = session ? await req.server.accounts.me(session.userId) : null;
  if (!me) throw new ApiHttpError('UNAUTHENTICATED');
  return { id: me.user.id, name: me.user.globalName ?? me.user.username, avatarUrl: me.user.avatarUrl };
}
