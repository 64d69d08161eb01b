export { createOutboundClient, OUTBOUND_DEFAULTS } from './outbound-client.ts';
export type {
  GetJsonInit,
  OutboundClient,
  OutboundClientOptions,
  OutboundFetchInit,
  OutboundRequestInit,
  OutboundResponse,
} from './outbound-client.ts';
export { OutboundError, isOutboundError } from './outbound-error.ts';
export type { OutboundErrorCode, OutboundErrorOptions } from './outbound-error.ts';
export { outboundEnv, outboundOptionsFromEnv } from './outbound-env.ts';
export type { OutboundEnv } from './outbound-env.ts';
export { parseAllowEntry, parseAllowList } from './allow-list.ts';
export type { AllowEntry } from './allow-list.ts';
export { parseIp } from './ip-address.ts';
export type { IpAddress, IpNetwork } from './ip-address.ts';
export { specialAddressClass } from './special-addresses.ts';
export type { AddressClass } from './special-addresses.ts';
export type { ResolveHost } from './vet-target.ts';
