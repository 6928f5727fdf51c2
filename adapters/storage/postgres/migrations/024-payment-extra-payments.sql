-- Paid twice (issue 29 item 6): final transactions that reached a succeeded payment's merchant for
-- one of its options after the one that paid it (a second tagged transfer, an authorization used
-- again). A JSON array of { txId, network, asset, value, optionId, foundAt }, appended once per
-- transaction; NULL while there is none. Kept on the payment so details show them in one read.
ALTER TABLE payments ADD COLUMN IF NOT EXISTS extra_payments jsonb;
