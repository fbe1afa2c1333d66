// Outbound HTTP: the only module of the service that opens connections to user-supplied hosts.
export { createOutboundClient, classifyError, guardedConnector } from './http-client.ts';
export type { OutboundClient, OutboundClientOptions, OutboundErrorClass, OutboundResult } from './http-client.ts';
export {
  assertHost,
  checkAddress,
  checkHost,
  checkTargetUrl,
  createSsrfPolicy,
  parseAllowCidrs,
  SsrfRefusedError,
  systemResolver,
} from './ssrf.ts';
export type { Cidr, HostVerdict, ResolvedAddress, Resolver, SsrfPolicy, UrlVerdict, Verdict } from './ssrf.ts';
export { createGuardedFetch, ResponseTooLargeError } from './guarded-fetch.ts';
export type { FetchInit, GuardedFetch, GuardedFetchOptions } from './guarded-fetch.ts';
