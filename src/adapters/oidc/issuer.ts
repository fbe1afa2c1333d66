// Which issuer URLs Vouch talks to (without loading openid-client: the settings form checks this).
import { isIP } from 'node:net';

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1';
}

/** Why an issuer URL cannot be used, or null. */
export function issuerProblem(issuer: string, allowHttpLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'is not a URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  if (url.search || url.hash) return 'must not have a query or a fragment';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && allowHttpLoopback && isLoopback(url.hostname)) return null;
  return url.protocol === 'http:' ? 'must be https (http is accepted only for a loopback issuer when VOUCH_SSO_ALLOW_HTTP_LOOPBACK is set)' : 'must be an https URL';
}

