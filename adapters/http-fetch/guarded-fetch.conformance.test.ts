import { runHttpFetchConformance } from './conformance/http-fetch-conformance.ts';
import { createGuardedFetch } from './guarded-fetch.ts';

// The one HttpFetchPort adapter (webhook delivery and logo checks configure this same one).
runHttpFetchConformance('guarded fetch (node:https)', ({ lookup, ca, allowAddresses }) => createGuardedFetch({ lookup, ca, allowAddresses }));
