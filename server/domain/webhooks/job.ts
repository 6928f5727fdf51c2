import type { JobHandler } from '../../ports/queue.ts';
import { createWebhookDeliverer, type WebhookDeliveryDeps } from './deliver.ts';

/**
 * What a process tells the delivery job: the guarded fetch (built by the composition root), the
 * sandbox loopback allowance, its own API port, and test-only overrides.
 */
export type WebhookJobOptions = Omit<WebhookDeliveryDeps, 'storage' | 'clock' | 'logger' | 'onJobsWritten'>;

/**
 * The `webhook.deliver` handler as the job registry builds it: production refuses every
 * non-public receiver; `allowLoopbackEndpoints` (sandbox mode) lets loopback through.
 */
export function webhookDeliveryJob(deps: Pick<WebhookDeliveryDeps, 'storage' | 'clock' | 'logger' | 'onJobsWritten'> & { webhooks: WebhookJobOptions }): JobHandler {
  const notify = deps.onJobsWritten ? { onJobsWritten: deps.onJobsWritten } : {};
  return createWebhookDeliverer({ ...deps.webhooks, storage: deps.storage, clock: deps.clock, logger: deps.logger, ...notify });
}
