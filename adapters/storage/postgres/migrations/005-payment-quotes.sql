-- Quotes: each payment option offered to a wallet, with what its confirmation must match.
CREATE TABLE payment_quotes (
  option_id    text PRIMARY KEY,
  payment_id   text NOT NULL REFERENCES payments(id),
  account      text NOT NULL,
  asset        text NOT NULL,
  amount       numeric(78, 0) NOT NULL,
  destination  text NOT NULL,
  deadline     timestamptz NOT NULL,
  state        jsonb NOT NULL,
  created_at   timestamptz NOT NULL
);
CREATE INDEX payment_quotes_payment ON payment_quotes (payment_id);
