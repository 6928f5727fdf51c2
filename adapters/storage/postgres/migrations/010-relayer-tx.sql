-- The EVM relayer's signed transaction, recorded with its hash (tx_id) before it is broadcast: a
-- crash between recording and broadcasting sends these same bytes again instead of signing a
-- second transaction, and the payment is followed by this hash only, never found by its nonce.
ALTER TABLE payments ADD COLUMN tx_raw text;
