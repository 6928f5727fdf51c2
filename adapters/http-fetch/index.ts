/** Public surface of the SSRF-guarded HTTP fetch adapter. */
export { createGuardedFetch } from './guarded-fetch.ts';
export type { AllowedAddress, GuardedFetchOptions, LookupFn } from './guarded-fetch.ts';
export { classifyAddress, isPublicAddress } from './address-policy.ts';
export type { AddressKind } from './address-policy.ts';
export { effectivePort, isOwnHostAddress } from './own-address.ts';
