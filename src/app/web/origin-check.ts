// Refuses state-changing requests sent by another site (login CSRF included). Cookies do not
// isolate ports, so over plain HTTP a page on another port of the same host can plant the
// sign-in form's double-submit cookie and post the matching token; what it cannot forge is the
// browser's `Sec-Fetch-Site` and `Origin` headers. Fetch metadata decides when the browser sends
// it (every current browser does): only `same-origin` passes. Otherwise the Origin must be this
// service's; `Origin: null` (what a browser sends under a no-referrer policy — ours — or from a
// sandboxed frame) proves nothing and is refused without Fetch metadata. A request with neither header is refused too
// (docs/security.md promises one of them): every browser sends Origin with a form post, so only
// scripts lack both, and they can send either. An Origin, when sent, must be this service's also
// beside `Sec-Fetch-Site: same-origin`; with an https public URL only https origins are this
// service's (an http:// page of the same host is another origin, and plants cookies).
import type { FastifyRequest } from 'fastify';

/** The origins this service answers as: the public URL's and the request's own Host (https only behind an https public URL). */
function ownOrigins(req: FastifyRequest, publicUrl: string): Set<string> {
  const origins = new Set<string>([new URL(publicUrl).origin]);
  const scheme = publicUrl.startsWith('https:') ? 'https' : req.protocol;
  try {
    origins.add(new URL(`${scheme}://${req.host}`).origin);
  } catch {
    // A malformed Host header adds nothing.
  }
  return origins;
}

/** Why this request must be refused as cross-site, or null when it may proceed. */
export function crossSiteReason(req: FastifyRequest, publicUrl: string): string | null {
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  if (site !== undefined && site !== 'same-origin') return `Sec-Fetch-Site is ${JSON.stringify(site)}`;
  // Beside `same-origin`, `Origin: null` is our own no-referrer policy at work; a named origin must be ours.
  const named = site === 'same-origin' ? origin !== 'null' : true;
  if (origin !== undefined && named && !ownOrigins(req, publicUrl).has(origin)) return `Origin ${JSON.stringify(origin)} is not this site`;
  if (site === undefined && origin === undefined) return 'neither Sec-Fetch-Site nor Origin was sent';
  return null;
}

export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
