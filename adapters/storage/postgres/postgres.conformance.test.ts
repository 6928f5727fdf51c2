import { runStorageConformance } from '../conformance/storage-conformance.ts';
import { runBoundedStorageConformance } from '../conformance/bounded-storage-conformance.ts';
import { runPartnersConformance } from '../conformance/partners-conformance.ts';
import { runApiKeysConformance } from '../conformance/api-keys-conformance.ts';
import { runMerchantsConformance } from '../conformance/merchants-conformance.ts';
import { runSettlementsConformance } from '../conformance/settlements-conformance.ts';
import { runIdempotencyConformance } from '../conformance/idempotency-conformance.ts';
import { runQuotesConformance } from '../conformance/quotes-conformance.ts';
import { runStorageLifecycleConformance } from '../conformance/lifecycle-conformance.ts';
import { storageBackends } from '../../../test/helpers/backends.ts';

for (const backend of await storageBackends()) {
  const open = () => backend.open();
  runStorageConformance(backend.name, open);
  runBoundedStorageConformance(backend.name, open);
  runPartnersConformance(backend.name, open);
  runApiKeysConformance(backend.name, open);
  runMerchantsConformance(backend.name, open);
  runSettlementsConformance(backend.name, open);
  runIdempotencyConformance(backend.name, open);
  runQuotesConformance(backend.name, open);
  runStorageLifecycleConformance(backend.name, open);
}
