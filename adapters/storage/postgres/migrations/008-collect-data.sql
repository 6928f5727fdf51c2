-- Buyer data collection: a merchant's setting (which payments ask for data), and per quoted
-- option whether it needs data and the data given (validated JSON) with the terms acceptance.
ALTER TABLE merchants ADD COLUMN data_collection jsonb;
ALTER TABLE payment_quotes ADD COLUMN collect_data boolean NOT NULL DEFAULT false;
ALTER TABLE payment_quotes ADD COLUMN collected_data jsonb;
ALTER TABLE payment_quotes ADD COLUMN terms_accepted_at timestamptz;
ALTER TABLE payment_quotes ADD COLUMN collected_at timestamptz;
