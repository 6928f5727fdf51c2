-- Partners, their keys, merchants, crypto settlements and idempotency keys.
CREATE TABLE partners (
  id              text PRIMARY KEY,
  name            text NOT NULL,
  default_version text NOT NULL,
  created_at      timestamptz NOT NULL
);

CREATE TABLE api_keys (
  id          text PRIMARY KEY,
  partner_id  text NOT NULL REFERENCES partners(id),
  scope       text NOT NULL CHECK (scope IN ('partner', 'wallet')),
  key_hash    text NOT NULL UNIQUE,
  hint        text NOT NULL,
  created_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX api_keys_partner ON api_keys (partner_id);

CREATE TABLE merchants (
  id          text PRIMARY KEY,
  partner_id  text NOT NULL REFERENCES partners(id),
  name        text NOT NULL,
  email       text,
  icon_url    text,
  status      text NOT NULL CHECK (status IN ('active', 'inactive', 'suspended')),
  created_at  timestamptz NOT NULL,
  deleted_at  timestamptz
);
-- Keyset pagination: a partner's live merchants, newest (largest id) first.
CREATE INDEX merchants_partner_live ON merchants (partner_id, id DESC) WHERE deleted_at IS NULL;

CREATE TABLE crypto_settlements (
  id           text PRIMARY KEY,
  partner_id   text NOT NULL REFERENCES partners(id),
  merchant_id  text NOT NULL REFERENCES merchants(id),
  asset        text NOT NULL,
  destination  text NOT NULL,
  created_at   timestamptz NOT NULL,
  CONSTRAINT crypto_settlements_merchant_asset UNIQUE (merchant_id, asset)
);

CREATE TABLE idempotency_keys (
  partner_id    text NOT NULL,
  key           text NOT NULL,
  request_hash  text NOT NULL,
  status_code   integer,
  response_body jsonb,
  created_at    timestamptz NOT NULL,
  claimed_at    timestamptz NOT NULL,
  PRIMARY KEY (partner_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
