// The SSRF policy: which addresses an outbound request may reach.
//
// A target is acceptable only if EVERY address its host resolves to is public unicast
// (ipaddr.js `range() === 'unicast'`, and for IPv6 inside the global unicast block 2000::/3), or
// lies inside an operator-allowed CIDR (VOUCH_WEBHOOK_ALLOW_CIDRS). The same check runs when a
// webhook is registered and again inside the connector at connect time (see http-client.ts), where
// the socket is opened to the very address that was checked — so DNS rebinding between the check
// and the connection cannot redirect us.
//
// Hosts are taken from WHATWG URL parsing, which already normalises numeric tricks
// (`2130706433`, `0x7f.1`, `017700000001` → `127.0.0.1`; `[::ffff:127.0.0.1]` → `[::ffff:7f00:1]`),
// and anything else goes through the resolver whose *answers* are checked, so a spelling that
// getaddrinfo understands but URL does not is still judged by the address it becomes.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** A parsed allow-list entry: an address and a prefix length. */
export type Cidr = [IpAddress, number];

export interface SsrfPolicy {
  /** Private ranges the operator explicitly allows (tests, on-premises receivers). */
  readonly allowCidrs: readonly Cidr[];
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to ALL its addresses. Injected in tests. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Thrown (or returned as a reason) when the policy refuses a target. */
export class SsrfRefusedError extends Error {
  readonly code = 'ERR_SSRF_REFUSED';
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SsrfRefusedError';
  }
}

export type Verdict = { ok: true } | { ok: false; reason: string };
export type HostVerdict = { ok: true; addresses: string[] } | { ok: false; reason: string };

/**
 * Parses "10.0.0.0/8, 127.0.0.0/8,fd00::/8". An empty string means "no exceptions".
 * A malformed entry throws: a typo in a security setting must stop the process, not be ignored.
 */
export function parseAllowCidrs(text: string | undefined, setting = 'VOUCH_WEBHOOK_ALLOW_CIDRS'): Cidr[] {
  const out: Cidr[] = [];
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    try {
      out.push(ipaddr.parseCIDR(entry));
    } catch {
      throw new Error(`${setting}: "${entry}" is not a CIDR (expected e.g. 10.0.0.0/8 or fd00::/8)`);
    }
  }
  return out;
}

/** From the raw setting ("a,b"), its split form (config.webhooks.allowCidrs), or parsed CIDRs. */
export function createSsrfPolicy(allowCidrs: string | readonly string[] | readonly Cidr[] = [], setting?: string): SsrfPolicy {
  if (typeof allowCidrs === 'string') return { allowCidrs: parseAllowCidrs(allowCidrs, setting) };
  if (allowCidrs.every((c): c is string => typeof c === 'string')) return { allowCidrs: parseAllowCidrs(allowCidrs.join(','), setting) };
  return { allowCidrs: [...(allowCidrs as readonly Cidr[])] };
}

const GLOBAL_UNICAST_V6: Cidr = [ipaddr.IPv6.parse('2000::'), 3];

/** The IPv4 address hidden inside 6to4, Teredo and NAT64 addresses, for a precise reason. */
function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4 | null {
  const b = addr.toByteArray();
  switch (addr.range()) {
    case '6to4':
      return new ipaddr.IPv4(b.slice(2, 6));
    case 'teredo': // the client address is stored inverted in the last 32 bits
      return new ipaddr.IPv4(b.slice(12, 16).map((x) => x ^ 0xff));
    case 'rfc6052':
    case 'rfc6145':
      return new ipaddr.IPv4(b.slice(12, 16));
    default:
      return null;
  }
}

function inAllowList(addr: IpAddress, policy: SsrfPolicy): boolean {
  return policy.allowCidrs.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits));
}

function describeRefusal(addr: IpAddress, range: string): string {
  if (addr.kind() === 'ipv6') {
    const inner = embeddedIPv4(addr as ipaddr.IPv6);
    if (inner) return `${addr.toString()} is a ${range} address (embedding ${inner.toString()}, ${inner.range()})`;
  }
  return `${addr.toString()} is a ${range} address`;
}

/**
 * Judges one resolved address. IPv4-mapped IPv6 (`::ffff:a.b.c.d`) reaches the embedded IPv4
 * host, so it is judged as that IPv4 address (and refused when that one is private).
 */
export function checkAddress(text: string, policy: SsrfPolicy): Verdict {
  let addr: IpAddress;
  try {
    addr = ipaddr.parse(stripBrackets(text));
  } catch {
    return { ok: false, reason: `"${text}" is not an IP address` };
  }
  let mappedFrom = '';
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    mappedFrom = ` (IPv4-mapped ${addr.toString()})`;
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  }
  if (inAllowList(addr, policy)) return { ok: true };
  const range = addr.range();
  if (range !== 'unicast') {
    return { ok: false, reason: describeRefusal(addr, range) + mappedFrom + ' and not a public unicast address' };
  }
  // ipaddr calls unassigned IPv6 space "unicast" too, including the deprecated IPv4-compatible
  // block ::/96 (`::127.0.0.1`); only 2000::/3 is assigned global unicast.
  if (addr.kind() === 'ipv6' && !addr.match(GLOBAL_UNICAST_V6)) {
    return { ok: false, reason: `${addr.toString()} is outside the IPv6 global unicast block 2000::/3` };
  }
  return { ok: true };
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * Resolves `hostname` (or takes it as is when it is an IP literal) and checks every address.
 * One bad address refuses the host: which one getaddrinfo returns first is not ours to choose.
 */
export async function checkHost(hostname: string, policy: SsrfPolicy, resolve: Resolver = systemResolver): Promise<HostVerdict> {
  const host = stripBrackets(hostname);
  if (!host) return { ok: false, reason: 'the URL has no host' };
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await resolve(host)).map((a) => a.address);
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'error';
      return { ok: false, reason: `host ${host} does not resolve (${code})` };
    }
    if (addresses.length === 0) return { ok: false, reason: `host ${host} does not resolve` };
  }
  for (const address of addresses) {
    const v = checkAddress(address, policy);
    if (!v.ok) return { ok: false, reason: isIP(host) ? v.reason : `host ${host} resolves to ${v.reason}` };
  }
  return { ok: true, addresses };
}

/** Same as checkHost, throwing SsrfRefusedError; used at connect time. */
export async function assertHost(hostname: string, policy: SsrfPolicy, resolve: Resolver = systemResolver): Promise<string[]> {
  const v = await checkHost(hostname, policy, resolve);
  if (!v.ok) throw new SsrfRefusedError(v.reason);
  return v.addresses;
}

export type UrlVerdict = { ok: true; url: URL; addresses: string[] } | { ok: false; reason: string };

/**
 * The registration check for a webhook URL: syntax, scheme, no embedded credentials, and the
 * address policy over the resolved host.
 */
export async function checkTargetUrl(text: string, policy: SsrfPolicy, resolve: Resolver = systemResolver): Promise<UrlVerdict> {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, reason: `"${text}" is not a valid absolute URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `scheme ${url.protocol.replace(/:$/, '')} is not allowed (only http and https)` };
  }
  // Credentials in the URL would be displayed in listings and are not how receivers should
  // authenticate us: the secret (HMAC signature) is.
  if (url.username || url.password) return { ok: false, reason: 'the URL must not contain a user name or password' };
  const host = await checkHost(url.hostname, policy, resolve);
  if (!host.ok) return { ok: false, reason: `refused by the SSRF policy: ${host.reason}` };
  return { ok: true, url, addresses: host.addresses };
}
