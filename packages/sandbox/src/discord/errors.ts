import type { FastifyReply } from 'fastify';
import type { BodyRefusal } from '../kit/body';

/** Discord's error body `{ message, code }` with its HTTP status. */
export function discordError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.code(status).send({ message, code });
}

export const unknownGuild = (reply: FastifyReply) => discordError(reply, 404, 10004, 'Unknown Guild');
export const unknownChannel = (reply: FastifyReply) => discordError(reply, 404, 10003, 'Unknown Channel');
export const missingAccess = (reply: FastifyReply) => discordError(reply, 403, 50001, 'Missing Access');
export const missingPermissions = (reply: FastifyReply) => discordError(reply, 403, 50013, 'Missing Permissions');

export function unauthorized(reply: FastifyReply) {
  return reply.code(401).header('cache-control', 'no-store').send({ message: '401: Unauthorized', code: 0 });
}

/** How Discord refuses a body `jsonBody` cannot read: 50109 for broken JSON, 50035 naming what the sandbox takes. */
export function refuseBody(reply: FastifyReply, notJsonMessage: string): (refusal: BodyRefusal) => void {
  return (refusal) => {
    if (refusal === 'invalid-json') discordError(reply, 400, 50109, 'The request body contains invalid JSON.');
    else reply.code(400).send({ message: 'Invalid Form Body', code: 50035, errors: { _errors: [{ code: 'SANDBOX_UNSUPPORTED', message: notJsonMessage }] } });
  };
}
