-- The EVM relayer's nonces owned by the service (issue 32): one row per (chain, relayer key),
-- locked in the transaction that records a signed transaction at `next_nonce` in its payments'
-- rows, so the key's lock is held for a nonce, a signature and a record, not for RPC round trips.
-- `next_nonce` only moves up: past each nonce given, and to the chain's pending count when the
-- chain is ahead (the key used elsewhere).
CREATE TABLE IF NOT EXISTS relayer_nonces (
  chain      text   NOT NULL,
  relayer    text   NOT NULL,
  next_nonce bigint NOT NULL,
  -- The last transactions given a nonce ({nonce, raw}, at most 16): a broadcast refused because an
  -- earlier nonce has not reached the node yet (another worker's, still on its way) sends these
  -- first, in order. A nonce abandoned (below) leaves the list.
  recent     jsonb  NOT NULL DEFAULT '[]',
  PRIMARY KEY (chain, relayer)
);

-- A nonce given to a transaction that will never reach the chain (refused for good, or its
-- payment ended before it was sent): filled by a 0-value self-transfer signed at it, kept here and
-- sent again with each later nonce until the chain's count has passed it, so the relayer's later
-- transactions are not stuck behind it.
CREATE TABLE IF NOT EXISTS relayer_nonce_gaps (
  chain      text        NOT NULL,
  relayer    text        NOT NULL,
  nonce      bigint      NOT NULL,
  filler_raw text        NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain, relayer, nonce)
);

-- A batch's replacement at its nonce moves every processing payment holding the old transaction
-- (recordRelayerTx with everyHolder): found by this index, which only ever holds the few rows in flight.
CREATE INDEX IF NOT EXISTS payments_processing_shared_tx_id ON payments (tx_id) WHERE tx_shared AND status = 'processing';
