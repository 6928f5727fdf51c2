import type { CounterDef, GaugeDef, HistogramDef, MetricDef } from './metrics.ts';

/**
 * Every metric the service exposes, with its label names. Names follow the OpenTelemetry semantic
 * conventions as Prometheus spells them (dots → underscores, unit suffix, `_total` on counters)
 * where a convention exists (HTTP server, database client pool); the service's own keep that style.
 */

const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]): CounterDef<L> => ({ kind: 'counter', name, help, labelNames });
const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]): GaugeDef<L> => ({ kind: 'gauge', name, help, labelNames });
const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: readonly number[]): HistogramDef<L> => ({
  kind: 'histogram',
  name,
  help,
  labelNames,
  buckets,
});

/** OpenTelemetry's advised HTTP duration buckets, and 30 s: a long-poll waits up to that. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30];
const PAYMENT_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 21_600, 86_400];
const FINALITY_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800];
const DELIVERY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];

export const METRICS = {
  httpDuration: histogram(
    'http_server_request_duration_seconds',
    'Duration of HTTP server requests, by method, route template (never a raw path) and status code.',
    ['http_request_method', 'http_route', 'http_response_status_code'],
    REQUEST_BUCKETS,
  ),

  jobsQueued: counter('jobs_queued_total', 'Outbox jobs the relay handed to the queue.', ['job_type']),
  jobsRunning: gauge('jobs_running', 'Jobs running in this process now.', ['job_type']),
  jobsCompleted: counter('jobs_completed_total', 'Job runs that finished the job.', ['job_type']),
  jobsFailed: counter('jobs_failed_total', 'Job runs that threw; the queue retries them with backoff.', ['job_type']),
  jobsRetried: counter('jobs_retried_total', 'Job runs that asked to run again later (a transfer not yet final, a busy webhook endpoint).', ['job_type']),
  jobDuration: histogram('job_duration_seconds', 'Duration of one job run, by job type and outcome (completed, retry, failed).', ['job_type', 'outcome'], REQUEST_BUCKETS),
  outboxLag: gauge('jobs_outbox_lag_seconds', 'Age of the oldest outbox job not yet handed to the queue; 0 when none waits.', []),

  paymentTransitions: counter('payment_transitions_total', 'Payment status changes, by the status left and the status entered.', ['from', 'to']),
  paymentTimeToFinal: histogram('payment_time_to_final_seconds', 'Time from a payment’s creation to its final status, by that status.', ['status'], PAYMENT_BUCKETS),
  longPollWaiters: gauge('payment_long_poll_waiters', 'Requests of this process waiting for a payment to change (long-polls).', []),

  chainSubmissions: counter(
    'chain_submissions_total',
    'Transfers the service submitted or followed to an end, by chain (CAIP-2), flow and outcome (submitted, confirmed, failed).',
    ['chain', 'flow', 'outcome'],
  ),
  chainTimeToFinality: histogram(
    'chain_time_to_finality_seconds',
    'Time from recording a transfer’s transaction to the chain confirming it, by chain and flow.',
    ['chain', 'flow'],
    FINALITY_BUCKETS,
  ),
  paymentFinality: counter(
    'payment_finality_total',
    'Succeeded payments whose transaction was followed to an end, by chain and outcome: final, or reversed (its block dropped and it could not be sent again; alert on any).',
    ['chain', 'outcome'],
  ),
  paymentPaidTwice: counter(
    'payment_paid_twice_total',
    'Final transactions that paid a succeeded payment’s merchant again (a second tagged transfer), by chain: the partner must settle with the buyer (alert on any).',
    ['chain'],
  ),
  serviceAccountBalance: gauge(
    'chain_service_account_balance',
    'Native balance of a relayer or fee payer, base units (wei, lamports); NaN while its RPC cannot be read. One series per account: `key` is its place in the relayer pool (0 first; a fee payer 0).',
    ['role', 'chain', 'key'],
  ),
  feeSpent: counter(
    'chain_fee_spent_base_units_total',
    'What the service’s fee accounts (relayer, Solana fee payer) spent on transactions for payments, native base units (wei, lamports; approximate above 2^53), by chain. Per partner: the dashboard’s settings page and npm run doctor.',
    ['chain'],
  ),
  optionsChainsDropped: counter(
    'gateway_options_chains_dropped_total',
    'Chains left out of a gateway options call: their node failed or did not answer within OPTIONS_CHAIN_BOUND_MS.',
    ['chain'],
  ),
  broadcastRefusals: counter(
    'chain_broadcast_refusals_total',
    'Relayer transactions a node refused to take, by chain and class (known, nonce-used, underpriced, intrinsic-gas, insufficient-funds, other).',
    ['chain', 'class'],
  ),
  serviceAccountMinimum: gauge(
    'chain_service_account_balance_minimum',
    'The balance below which a relayer or fee payer is reported low (a relayer key leaves the pool), base units.',
    ['role', 'chain', 'key'],
  ),

  webhookDeliveries: counter('webhook_deliveries_total', 'Webhook delivery attempts, by outcome (delivered, retry, failed).', ['outcome']),
  webhookDuration: histogram('webhook_delivery_duration_seconds', 'Duration of one webhook delivery attempt, by outcome.', ['outcome'], DELIVERY_BUCKETS),
  webhookEndpointsDisabled: counter('webhook_endpoints_disabled_total', 'Webhook endpoints the service disabled, by reason (gone: the receiver answered 410).', ['reason']),

  dbConnections: gauge('db_client_connection_count', 'Database pool connections by state (idle, used).', ['db_client_connection_state']),
  dbPending: gauge('db_client_connection_pending_requests', 'Queries waiting for a pool connection.', []),
} as const satisfies Record<string, MetricDef>;
