-- What the service's shared fee accounts (EVM relayer, Solana fee payer) spent per transaction,
-- charged to the partner whose payment it served: summed per partner, chain and period to hold
-- each partner to a fee budget. One row per (chain, tx_id), so a repeated report counts once.
CREATE TABLE fee_spending (
  chain       text NOT NULL,
  tx_id       text NOT NULL,
  partner_id  text NOT NULL REFERENCES partners(id),
  payment_id  text NOT NULL,
  account     text NOT NULL,
  amount      numeric(78, 0) NOT NULL CHECK (amount >= 0),
  at          timestamptz NOT NULL,
  PRIMARY KEY (chain, tx_id)
);
CREATE INDEX fee_spending_partner_chain_at ON fee_spending (partner_id, chain, at);
