-- Payments and their events. Amounts are NUMERIC(78,0): base units of any token (uint256) and
-- minor units of any currency fit without loss.
CREATE TABLE payments (
  id                   text PRIMARY KEY,
  partner_id           text NOT NULL REFERENCES partners(id),
  merchant_id          text NOT NULL REFERENCES merchants(id),
  reference_id         text NOT NULL,
  fiat_currency        text NOT NULL,
  fiat_value           numeric(78, 0) NOT NULL CHECK (fiat_value > 0),
  status               text NOT NULL CHECK (status IN ('requires_action', 'processing', 'succeeded', 'failed', 'expired', 'cancelled')),
  state_version        integer NOT NULL,
  expires_at           timestamptz NOT NULL,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL,
  checkout_success_url text,
  checkout_error_url   text,
  failure_code         text,
  cancelled_reason     text,
  cancelled_at         timestamptz,
  refunded_at          timestamptz,
  option_id            text,
  buyer_account        text,
  asset                text,
  token_value          numeric(78, 0),
  network              text,
  tx_id                text,
  succeeded_at         timestamptz
);
-- Keyset pagination newest-first per partner and per merchant, and by amount.
CREATE INDEX payments_partner_id ON payments (partner_id, id);
CREATE INDEX payments_merchant_id ON payments (partner_id, merchant_id, id);
CREATE INDEX payments_partner_amount ON payments (partner_id, fiat_value, id);
CREATE INDEX payments_partner_reference ON payments (partner_id, reference_id);
-- A transaction pays at most one payment.
CREATE UNIQUE INDEX payments_tx_id ON payments (network, tx_id) WHERE tx_id IS NOT NULL;

-- Keyed by (payment, version): one index serves both "the events of a payment in order" and
-- uniqueness, which keeps the write on payment creation to as few index insertions as possible.
CREATE TABLE payment_events (
  id             text NOT NULL,
  payment_id     text NOT NULL REFERENCES payments(id),
  partner_id     text NOT NULL,
  type           text NOT NULL,
  state_version  integer NOT NULL,
  created_at     timestamptz NOT NULL,
  data           jsonb NOT NULL,
  PRIMARY KEY (payment_id, state_version)
);
