import type { JobHandler } from '../../ports/queue.ts';
import { createWebhookDeliverer, type WebhookDeliveryDeps } from './deliver.ts';
import { createWebhookFetch } from './fetcher.ts';

/** What a process tells the delivery job: sandbox loopback allowance, its own API port, and test-only overrides. */
export type WebhookJobOptions = Partial<Omit<WebhookDeliveryDeps, 'storage' | 'clock' | 'logger'>>;

/**
 * The `webhook.deliver` handler as the job registry builds it: production refuses every
 * non-public receiver; `allowLoopbackEndpoints` (sandbox mode) lets loopback through.
 */
export function webhookDeliveryJob(deps: Pick<WebhookDeliveryDeps, 'storage' | 'clock' | 'logger'> & { webhooks?: WebhookJobOptions }): JobHandler {
  const o = deps.webhooks ?? {};
  return createWebhookDeliverer({
    ...o,
    storage: deps.storage,
    clock: deps.clock,
    logger: deps.logger,
    fetch: o.fetch ?? createWebhookFetch({ allowLoopback: o.allowLoopbackEndpoints ?? false, ...(o.ownPort !== undefined ? { ownPort: o.ownPort } : {}) }),
  });
}
