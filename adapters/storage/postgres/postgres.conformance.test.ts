import { runPartnersConformance } from '../conformance/partners-conformance.ts';
import { runApiKeysConformance } from '../conformance/api-keys-conformance.ts';
import { runMerchantsConformance } from '../conformance/merchants-conformance.ts';
import { runSettlementsConformance } from '../conformance/settlements-conformance.ts';
import { runIdempotencyConformance } from '../conformance/idempotency-conformance.ts';
import { runQuotesConformance } from '../conformance/quotes-conformance.ts';
import { runWalletRequestsConformance } from '../conformance/wallet-requests-conformance.ts';
import { runPaymentConformance } from '../conformance/payments-conformance.ts';
import { runPaymentListConformance } from '../conformance/payment-lists-conformance.ts';
import { runJobConformance } from '../conformance/jobs-conformance.ts';
import { runWebhookConformance } from '../conformance/webhooks-conformance.ts';
import { runWebhookDispatchConformance } from '../conformance/webhook-dispatch-conformance.ts';
import { runStorageLifecycleConformance } from '../conformance/lifecycle-conformance.ts';
import { runUsersConformance } from '../conformance/users-conformance.ts';
import { runSessionsConformance } from '../conformance/sessions-conformance.ts';
import { runAuditLogConformance } from '../conformance/audit-log-conformance.ts';
import { runFeeSpendingConformance } from '../conformance/fee-spending-conformance.ts';
import { storageBackends } from '../../../test/helpers/backends.ts';

for (const backend of await storageBackends()) {
  const open = () => backend.open();
  runPartnersConformance(backend.name, open);
  runApiKeysConformance(backend.name, open);
  runMerchantsConformance(backend.name, open);
  runSettlementsConformance(backend.name, open);
  runIdempotencyConformance(backend.name, open);
  runQuotesConformance(backend.name, open);
  runWalletRequestsConformance(backend.name, open);
  runPaymentConformance(backend.name, open);
  runPaymentListConformance(backend.name, open);
  runJobConformance(backend.name, open);
  runWebhookConformance(backend.name, open);
  runWebhookDispatchConformance(backend.name, open);
  runStorageLifecycleConformance(backend.name, open);
  runUsersConformance(backend.name, open);
  runSessionsConformance(backend.name, open);
  runAuditLogConformance(backend.name, open);
  runFeeSpendingConformance(backend.name, open);
}
