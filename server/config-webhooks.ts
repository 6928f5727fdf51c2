import { WEBHOOK_RETRY_SCHEDULE_MS } from './domain/webhooks/schedule.ts';

/** Webhook settings from the environment; `problem` names the variable at fault. */
export interface WebhookConfig {
  /** Plain-http loopback receivers (`localhost`, `127.x`, `[::1]`) accepted; never the API's own port. */
  webhookAllowLoopback: boolean;
  /** Waits between delivery attempts, ms, the first one counted from the event. */
  webhookRetryScheduleMs: readonly number[];
}

/** The longest wait one step of the schedule may ask for: a day. */
const MAX_STEP_S = 86_400;

/**
 * WEBHOOK_ALLOW_LOOPBACK (on/off; default on in the sandbox, off in production) lets a receiver
 * on this machine take deliveries in production mode too: a test rig or a fault suite whose
 * receiver runs beside the service. WEBHOOK_RETRY_SCHEDULE_S ("0,5,300,…", seconds between
 * attempts) shortens the schedule where a receiver that was down must be caught up within
 * minutes rather than hours; the default is the Standard Webhooks one.
 */
export function parseWebhookConfig(env: NodeJS.ProcessEnv, mode: 'sandbox' | 'production'): WebhookConfig | { problem: string } {
  const loopback = env.WEBHOOK_ALLOW_LOOPBACK;
  if (loopback !== undefined && loopback !== '' && loopback !== 'on' && loopback !== 'off') return { problem: `WEBHOOK_ALLOW_LOOPBACK must be on or off, got "${loopback}"` };
  const webhookAllowLoopback = loopback === undefined || loopback === '' ? mode === 'sandbox' : loopback === 'on';
  const raw = env.WEBHOOK_RETRY_SCHEDULE_S;
  if (raw === undefined || raw === '') return { webhookAllowLoopback, webhookRetryScheduleMs: WEBHOOK_RETRY_SCHEDULE_MS };
  const steps = raw.split(',').map((s) => s.trim());
  const bad = steps.find((s) => !/^\d{1,6}$/.test(s) || Number(s) > MAX_STEP_S);
  if (bad !== undefined || steps.length > 20) {
    return { problem: `WEBHOOK_RETRY_SCHEDULE_S must be 1 to 20 comma-separated whole seconds from 0 to ${MAX_STEP_S}, e.g. "0,5,300", got "${raw}"` };
  }
  return { webhookAllowLoopback, webhookRetryScheduleMs: steps.map((s) => Number(s) * 1000) };
}
