import { runStorageConformance } from '../conformance/storage-conformance.ts';
import { runBoundedStorageConformance } from '../conformance/bounded-storage-conformance.ts';
import { runPaymentConformance } from '../conformance/payments-conformance.ts';
import { runPaymentListConformance } from '../conformance/payment-lists-conformance.ts';
import { runJobConformance } from '../conformance/jobs-conformance.ts';
import { runWebhookConformance } from '../conformance/webhooks-conformance.ts';
import { runWebhookDispatchConformance } from '../conformance/webhook-dispatch-conformance.ts';
import { storageBackends } from '../../../test/helpers/backends.ts';

for (const backend of await storageBackends()) {
  runStorageConformance(backend.name, () => backend.open());
  runBoundedStorageConformance(backend.name, () => backend.open());
  runPaymentConformance(backend.name, () => backend.open());
  runPaymentListConformance(backend.name, () => backend.open());
  runJobConformance(backend.name, () => backend.open());
  runWebhookConformance(backend.name, () => backend.open());
  runWebhookDispatchConformance(backend.name, () => backend.open());
}
