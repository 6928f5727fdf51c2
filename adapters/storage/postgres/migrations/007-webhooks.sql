-- Webhooks. Payment events are fanned out to endpoints by a dispatcher, not by the payment units
-- themselves, so creating or moving a payment writes nothing more than before. Events written
-- before this migration predate webhooks and are not announced.
ALTER TABLE payment_events ADD COLUMN IF NOT EXISTS dispatched_at timestamptz;
UPDATE payment_events SET dispatched_at = created_at WHERE dispatched_at IS NULL;
CREATE INDEX IF NOT EXISTS payment_events_undispatched ON payment_events (created_at) WHERE dispatched_at IS NULL;
-- Redelivery looks an event up by its id.
CREATE INDEX IF NOT EXISTS payment_events_id ON payment_events (id);

CREATE TABLE webhook_endpoints (
  id                          text PRIMARY KEY,
  partner_id                  text NOT NULL,
  url                         text NOT NULL,
  enabled_events              text[] NOT NULL,
  enabled                     boolean NOT NULL,
  disabled_reason             text,
  -- The secret signs, so it is stored itself (not a hash); it is shown to the partner once.
  secret                      text NOT NULL,
  previous_secret             text,
  previous_secret_expires_at  timestamptz,
  created_at                  timestamptz NOT NULL,
  updated_at                  timestamptz NOT NULL,
  deleted_at                  timestamptz
);
CREATE INDEX webhook_endpoints_partner ON webhook_endpoints (partner_id, id) WHERE deleted_at IS NULL;

-- One event to one endpoint. `body` is the exact envelope posted, so every attempt and a
-- redelivery send the same bytes under the same webhook-id (the event id).
CREATE TABLE webhook_deliveries (
  id               text PRIMARY KEY,
  endpoint_id      text NOT NULL REFERENCES webhook_endpoints(id),
  partner_id       text NOT NULL,
  event_id         text NOT NULL,
  event_type       text NOT NULL,
  body             text NOT NULL,
  status           text NOT NULL,
  attempt_count    integer NOT NULL DEFAULT 0,
  last_status_code integer,
  next_attempt_at  timestamptz,
  created_at       timestamptz NOT NULL,
  delivered_at     timestamptz
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id);

CREATE TABLE webhook_attempts (
  delivery_id  text NOT NULL REFERENCES webhook_deliveries(id),
  attempt      integer NOT NULL,
  at           timestamptz NOT NULL,
  status_code  integer,
  duration_ms  integer NOT NULL,
  error        text,
  PRIMARY KEY (delivery_id, attempt)
);
