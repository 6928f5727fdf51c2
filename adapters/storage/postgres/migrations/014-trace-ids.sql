-- One trace through everything: the request id (or W3C trace id) of the change that wrote a job or a
-- payment event, so the job runs, and the event's webhook deliveries are sent, in that trace and
-- their log lines carry it; a delivery keeps its event's payment for the same reason. Nullable and
-- without a default (a catalog-only change, no table rewrite): rows written before this, or outside
-- any trace, have none and run as before.
ALTER TABLE outbox_jobs ADD COLUMN IF NOT EXISTS trace_id text;
ALTER TABLE payment_events ADD COLUMN IF NOT EXISTS trace_id text;
ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS trace_id text;
ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS payment_id text;
