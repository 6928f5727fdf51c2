-- Relayer batches (issue 32): one EVM relayer transaction (Multicall3 aggregate3) pays several
-- EIP-3009 payments, each judged by its own authorization's AuthorizationUsed event and the
-- Transfer it introduces, so every payment of the batch records the same transaction id.
-- `tx_shared` marks such a row: its transaction may pay other payments too, each by its own
-- authorization (whose nonce is derived from the payment and option, so it can pay no other).
-- Every other transaction id (a buyer's direct transfer, a Solana transaction, a Permit2 transfer
-- judged by its Transfers) stays on at most one payment per network: the unique index that guards
-- against one buyer transaction paying two payments now covers exactly those rows.
ALTER TABLE payments ADD COLUMN IF NOT EXISTS tx_shared boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX IF NOT EXISTS payments_unshared_tx_id ON payments (network, tx_id) WHERE tx_id IS NOT NULL AND NOT tx_shared;
DROP INDEX IF EXISTS payments_tx_id;
