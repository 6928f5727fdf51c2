/**
 * Live (not deleted) webhook endpoints one partner may have. Every payment event is fanned out to
 * each subscribed endpoint, so endpoints multiply deliveries, jobs and attempts; 16 is Stripe's
 * figure, ample for a production receiver, a staging one and a few per team.
 */
export const MAX_WEBHOOK_ENDPOINTS = 16;
