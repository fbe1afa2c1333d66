// Cookies planted by another port of the same host (docs/security.md, "Cookie isolation").
//
// Browsers do not isolate cookies by port: over plain HTTP a page on another port of this host
// can set `vouch_session=<its own token>; Path=/sessions` (or `Domain=` a parent domain). The
// browser then sends two `vouch_session` cookies to /sessions — the more specific path first,
// which is the one a cookie parser keeps — and a dashboard upload would land in the planter's
// account. The server cannot see a cookie's path or domain, but it can see two cookies of the
// same name in the raw `Cookie` header: Vouch only ever sets one (host-only, Path=/), so a
// second one was planted. Such a request is refused, whatever its method, and answered with
// Set-Cookie headers that delete every cookie of that name the browser could have sent to this
// path other than Vouch's own (each Path that matches the URL, for this host and each parent
// domain); the next request carries Vouch's cookie alone. Behind https the `__Host-` names make
// this impossible in the first place (Secure, no Domain, Path=/ enforced by the browser).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { sendErrorPage } from './error-page.tsx';
import { cookieNames } from './session-cookie.ts';

/** How many cookies named `name` the raw Cookie header carries. */
export function cookieCount(header: string | undefined, name: string): number {
  if (!header) return 0;
  return header.split(';').filter((pair) => {
    const eq = pair.indexOf('=');
    return (eq < 0 ? pair : pair.slice(0, eq)).trim() === name;
  }).length;
}

/** Every cookie Path that a browser would send to `urlPath` (RFC 6265 §5.1.4), but `/`. */
export function matchingCookiePaths(urlPath: string): string[] {
  const path = urlPath.split('?')[0];
  const out = new Set<string>();
  let at = 0;
  while ((at = path.indexOf('/', at + 1)) > 0) {
    out.add(path.slice(0, at));
    out.add(path.slice(0, at + 1));
  }
  if (path.length > 1) out.add(path);
  out.delete('/');
  return [...out];
}

/** The parent domains of a host name (none for an IP address). */
function parentDomains(host: string): string[] {
  const name = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  if (/^[\d.]+$/.test(name) || name.includes(':')) return [];
  const labels = name.split('.');
  return labels.slice(1).map((_, i) => labels.slice(i + 1).join('.')).filter((d) => d.includes('.') || d === 'localhost');
}

/** The names of the dashboard's cookies that appear more than once in this request. */
export function duplicatedCookies(req: FastifyRequest, config: Config): string[] {
  const { session, loginCsrf } = cookieNames(config);
  return [session, loginCsrf].filter((name) => cookieCount(req.headers.cookie, name) > 1);
}

/** Deletes every cookie named `name` the browser could have sent to this URL, except Vouch's own (host-only, Path=/). */
function clearPlanted(req: FastifyRequest, reply: FastifyReply, config: Config, name: string): void {
  const base = { httpOnly: true, sameSite: 'lax' as const, secure: config.secureCookies, maxAge: 0 };
  for (const path of matchingCookiePaths(req.url)) reply.clearCookie(name, { ...base, path });
  for (const domain of parentDomains(req.host)) {
    for (const path of ['/', ...matchingCookiePaths(req.url)]) reply.clearCookie(name, { ...base, path, domain });
  }
}

/** Refuses a request that carries two cookies of one dashboard name; null when there is none. */
export function refusePlantedCookies(req: FastifyRequest, reply: FastifyReply, config: Config): FastifyReply | null {
  const names = duplicatedCookies(req, config);
  if (names.length === 0) return null;
  req.log.warn({ cookies: names }, 'request refused: a cookie of the dashboard was sent twice (planted by another site on this host?)');
  for (const name of names) clearPlanted(req, reply, config, name);
  return sendErrorPage(req, reply, 400, {
    title: 'Your browser sent two Vouch sign-in cookies',
    message: 'Another site on this host may have set one of them, to make you work in its account. Vouch refused the request and removed the extra cookie. '
      + 'Reload the page, and check the email shown at the top before you upload anything. Serving Vouch over https prevents this.',
  });
}
