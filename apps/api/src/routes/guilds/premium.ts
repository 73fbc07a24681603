import { ApiError, AssignPremiumRequest, GuildParams, ServerPremiumAnswer } from '@tickety/api-contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/actor';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 503: ApiError };

/**
 * A server's premium (`/api/guilds/:server/premium`): `GET` (Premium read access) answers whether it
 * has premium, which subscription's slot covers it and the signed-in user's own premium slots;
 * `PUT` (Premium write access) puts one of the user's slots on the server, moving it from another
 * server when its cooldown has passed (409 code 1023 before). Both servers' Web Logs record it.
 */
export default async function premiumRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/:server/premium', { attachValidation: true, preHandler: app.requireArea('premium', 'read'), schema: { params: GuildParams, response: { 200: ServerPremiumAnswer, ...errors } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const session = await req.getSession();
    return app.billingAccounts.serverPremium(req.guild!.id, session!.userId);
  });

  app.put(
    '/:server/premium',
    { attachValidation: true, preHandler: app.requireArea('premium', 'write'), schema: { params: GuildParams, body: AssignPremiumRequest, response: { 200: ServerPremiumAnswer, ...errors } } },
    async (req) => {
      if (req.validationError) throw req.validationError;
      const guild = req.guild!;
      const actor = await actorOf(req);
      const { provider, subscriptionId, slot } = req.body;
      await app.billingAccounts.assignToServer(actor, guild.id, provider, subscriptionId, slot);
      return app.billingAccounts.serverPremium(guild.id, actor.id);
    },
  );
}
