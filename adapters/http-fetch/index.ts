/** Public surface of the SSRF-guarded HTTP fetch adapter. */
export { createGuardedFetch } from './guarded-fetch.ts';
export { isPublicAddress } from './address-policy.ts';
export { isOwnHostAddress } from './own-address.ts';
