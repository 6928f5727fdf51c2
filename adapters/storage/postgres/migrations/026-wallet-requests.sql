-- Solana Pay transaction requests (issue 31): the one option whose transaction is handed out to an
-- account for an asset of a payment. Scans reaching several API processes at once each read this
-- row, and only one of them can set it (insert if absent, or replace the very option it read as
-- spent), so they all answer the same option and so the same transaction. Deleted with its quote.
CREATE TABLE IF NOT EXISTS wallet_requests (
  payment_id  text NOT NULL,
  account     text NOT NULL,
  asset       text NOT NULL,
  option_id   text NOT NULL REFERENCES payment_quotes(option_id) ON DELETE CASCADE,
  PRIMARY KEY (payment_id, account, asset)
);
CREATE INDEX IF NOT EXISTS wallet_requests_option ON wallet_requests (option_id);
