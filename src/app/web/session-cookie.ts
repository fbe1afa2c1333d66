// The dashboard's cookies, in one place: names, attributes, and reading the signed-in user.
// Behind https the cookies are Secure and use the __Host- prefix (bound to this host, path /).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { AppDeps } from '../types.ts';

export function cookieNames(config: Config): { session: string; loginCsrf: string } {
  const prefix = config.secureCookies ? '__Host-' : '';
  return { session: `${prefix}vouch_session`, loginCsrf: `${prefix}vouch_login_csrf` };
}

function attributes(config: Config, maxAgeSeconds: number) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: config.secureCookies, path: '/', maxAge: maxAgeSeconds };
}

/** `ttlMs`: the session's own lifetime when shorter than the default (single sign-on). */
export function setSessionCookie(reply: FastifyReply, config: Config, token: string, ttlMs = config.webSessionTtlMs): void {
  reply.setCookie(cookieNames(config).session, token, attributes(config, Math.floor(ttlMs / 1000)));
}

export function setLoginCsrfCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(cookieNames(config).loginCsrf, token, attributes(config, 3600));
}

export function clearCookie(reply: FastifyReply, config: Config, name: string): void {
  reply.clearCookie(name, attributes(config, 0));
}

/** Resolves req.webUser from the session cookie (an expired or unknown cookie is no user). */
export async function loadWebUser(req: FastifyRequest, config: Config, services: AppDeps['services']): Promise<void> {
  const token = req.cookies[cookieNames(config).session];
  if (!token) return;
  const s = await services.webAuth.resolveWebSession(token);
  if (s) req.webUser = s;
}

/**
 * A `next` target that stays on this site: a local path of printable ASCII (what a Location
 * header can carry), never `//host` or `/\host`. Anything else is `/`: a crafted non-ASCII
 * `next` once made sign-in fail after the session was created.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > 2000) return '/';
  if (!/^\/(?![/\\])[\x21-\x7e]*$/.test(next)) return '/';
  return next;
}
