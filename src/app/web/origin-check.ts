// Refuses state-changing requests sent by another site (login CSRF included). Cookies do not
// isolate ports, so over plain HTTP a page on another port of the same host can plant the
// sign-in form's double-submit cookie and post the matching token; what it cannot forge is the
// browser's `Sec-Fetch-Site` and `Origin` headers. Fetch metadata decides when the browser sends
// it (every current browser does): only `same-origin` passes. Otherwise the Origin must be this
// service's; `Origin: null` (what a browser sends under a no-referrer policy — ours — or from a
// sandboxed frame) proves nothing and is refused. A request with neither header (curl, scripts)
// is not a browser's and carries no ambient cookie risk, so it is left to the CSRF token alone.
import type { FastifyRequest } from 'fastify';

/** The origins this service answers as: the public URL's and the request's own Host. */
function ownOrigins(req: FastifyRequest, publicUrl: string): Set<string> {
  const origins = new Set<string>([new URL(publicUrl).origin]);
  try {
    origins.add(new URL(`${req.protocol}://${req.host}`).origin);
  } catch {
    // A malformed Host header adds nothing.
  }
  return origins;
}

/** Why this request must be refused as cross-site, or null when it may proceed. */
export function crossSiteReason(req: FastifyRequest, publicUrl: string): string | null {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' ? null : `Sec-Fetch-Site is ${JSON.stringify(site)}`;
  const origin = req.headers.origin;
  if (origin !== undefined && !ownOrigins(req, publicUrl).has(origin)) return `Origin ${JSON.stringify(origin)} is not this site`;
  return null;
}

export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
