// What every signed-in page does with a visitor: send them to sign in, coming back here after.
import type { FastifyReply, FastifyRequest } from 'fastify';

export function toLogin(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.redirect(`/login?next=${encodeURIComponent(req.url)}`, 303);
}
