/**
 * The EVM relayer's nonces, owned by the service (issue 32): a counter per (chain, relayer key)
 * kept in the database beside the payments, so the key's lock is held only to take a nonce, sign
 * and record, and the RPC round trips (fees, estimates, the broadcast) happen outside it.
 */

/** One relayer key on one chain. */
export interface RelayerKeyRef {
  /** CAIP-2. */
  chain: string;
  /** The key's address (any case; compared lower-cased). */
  relayer: string;
}

/** A payment row that is to hold the signed transaction, as `recordRelayerTx` records it. */
export interface NonceRecordRow {
  paymentId: string;
  /** The transaction id the row holds now (null for its first). */
  replaces: string | null;
  /** The transaction may pay other payments too (an EIP-3009 batch). */
  shared?: true;
}

export type SignedAt = { txId: string; rawTx: string };

export type NonceRecordResult = {
  /** The signed transaction, or null when no row took it (nothing kept, the nonce not used). */
  tx: SignedAt | null;
  nonce: number | null;
  /** The payments whose rows now hold `tx`. */
  took: string[];
  /** Fillers of earlier gaps the chain has not passed yet: to broadcast (again). */
  fillers: string[];
  /**
   * The recorded transactions of the nonces between `chainPending` and this one, in nonce order:
   * sent first when the node refuses this one for the gap (a node that queues no future nonce).
   */
  earlier: string[];
};

export interface RelayerNonces {
  /**
   * In one database transaction, under the key's row lock: the nonce is the stored next one, or
   * the chain's `chainPending` count when the chain is ahead; `sign` signs at it (no I/O: it runs
   * inside the lock); every row is recorded as `recordRelayerTx` would (a processing payment still
   * holding `replaces`); the stored counter moves past the nonce only when a row took the
   * transaction, else everything is rolled back and the nonce stays free. Gaps the chain's count
   * has passed are forgotten.
   */
  signAndRecord(key: RelayerKeyRef, chainPending: number, sign: (nonce: number) => Promise<SignedAt>, rows: NonceRecordRow[], at: Date): Promise<NonceRecordResult>;
  /**
   * The transaction given `nonce` will never reach the chain: `fill` signs a 0-value transfer at it
   * (no I/O), kept until the chain's count passes it. Answers the filler to broadcast, or null when
   * the nonce is not one this counter gave, or is filled already.
   */
  abandon(key: RelayerKeyRef, nonce: number, fill: (nonce: number) => Promise<string>): Promise<string | null>;
}
