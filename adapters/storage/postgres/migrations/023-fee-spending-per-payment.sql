-- A relayer transaction may serve several payments (a batch through Multicall3): each payment is
-- charged its share once, so a row is one (chain, tx_id, payment_id); a repeated report still counts once.
ALTER TABLE fee_spending DROP CONSTRAINT fee_spending_pkey;
ALTER TABLE fee_spending ADD PRIMARY KEY (chain, tx_id, payment_id);
