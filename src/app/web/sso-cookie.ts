// The cookie that binds a single sign-on to the browser that started it: it carries the `state`
// sent to the provider, and the callback is completed only when both match. SameSite=Lax: the
// provider sends the browser back with a top-level GET, which Lax cookies accompany.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';

const ttlSeconds = 600;

export function ssoStateCookieName(config: Config): string {
  return `${config.secureCookies ? '__Host-' : ''}vouch_sso_state`;
}

function attributes(config: Config, maxAge: number) {
  return { httpOnly: true, sameSite: 'lax' as const, secure: config.secureCookies, path: '/', maxAge };
}

export function setSsoStateCookie(reply: FastifyReply, config: Config, state: string): void {
  reply.setCookie(ssoStateCookieName(config), state, attributes(config, ttlSeconds));
}

export function readSsoStateCookie(req: FastifyRequest, config: Config): string | undefined {
  return req.cookies[ssoStateCookieName(config)];
}

export function clearSsoStateCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(ssoStateCookieName(config), attributes(config, 0));
}
