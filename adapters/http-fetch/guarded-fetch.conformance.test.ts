import { isPublicAddress } from './address-policy.ts';
import { runHttpFetchConformance } from './conformance/http-fetch-conformance.ts';
import { createGuardedFetch } from './guarded-fetch.ts';
import { isOwnHostAddress } from './own-address.ts';

// The one HttpFetchPort adapter (webhook delivery and logo checks configure this same one), with the
// address policy the composition root hands webhook registration (server/composition/webhooks.ts).
runHttpFetchConformance('guarded fetch (node:https)', ({ lookup, ca, allowAddresses }) => createGuardedFetch({ lookup, ca, allowAddresses }), {
  isPublic: isPublicAddress,
  isOwnHostAddress,
});
