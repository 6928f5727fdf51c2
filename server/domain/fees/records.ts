/**
 * One transaction's cost to a service fee account (the EVM relayer's gas, the Solana fee payer's
 * fee and rent), charged to the partner whose payment it served. Amounts in the chain's native
 * base units (wei, lamports).
 */
export interface FeeSpendRecord {
  partnerId: string;
  paymentId: string;
  /** CAIP-2. */
  chain: string;
  /** The fee account that paid. */
  account: string;
  txId: string;
  amount: bigint;
  at: Date;
}

/** What a partner's payments spent on one chain over a period. */
export interface FeeSpendTotal {
  chain: string;
  amount: bigint;
  transactions: number;
}
