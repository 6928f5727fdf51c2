-- The outbox: durable jobs written in the same transaction as the state change that needs them.
-- A relay hands unrelayed jobs to the queue (BullMQ or inline); a worker marks them completed.
CREATE TABLE outbox_jobs (
  id            text PRIMARY KEY,
  type          text NOT NULL,
  payload       jsonb NOT NULL,
  run_at        timestamptz NOT NULL,
  created_at    timestamptz NOT NULL,
  relayed_at    timestamptz,
  completed_at  timestamptz,
  attempts      integer NOT NULL DEFAULT 0,
  last_error    text
);
CREATE INDEX outbox_jobs_unrelayed ON outbox_jobs (created_at) WHERE relayed_at IS NULL;
