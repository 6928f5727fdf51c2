// What a node's refusal of `eth_sendRawTransaction` means for the relayer, from the messages the
// clients behind commercial RPC providers actually send: go-ethereum and its forks (OP stack's
// op-geth, Polygon's bor, Arbitrum's nitro), Erigon ("<IMPORT_RESULT>: <reason>"), Nethermind
// (older versions answer the AcceptTxResult name: "OldNonce", "FeeTooLow, …"), Besu, and the
// sandbox's EDR. A refusal is never answered by sending the same bytes again forever.

/** What the relayer does about a refused broadcast. */
export type RefusalClass =
  /** The node already holds this very transaction: follow it. */
  | 'known'
  /** The nonce is used (by this transaction mined, or another): follow the chain, which decides. */
  | 'nonce-used'
  /** The fees are too low for the pool, the base fee, the chain's minimum tip or a replacement: re-sign at the same nonce with fresh fees. */
  | 'underpriced'
  /** The gas limit is below the transaction's intrinsic cost: re-estimate and re-sign at the same nonce. */
  | 'intrinsic-gas'
  /** The relayer cannot pay: fail fast, alert, stop offering gasless payments on the chain until funded. */
  | 'insufficient-funds'
  /** Anything else (pool full, nonce gap, a node or network fault): the outcome is unknown; look again later. */
  | 'other';

export interface BroadcastRefusal {
  class: RefusalClass;
  /** The node's own message (first line, bounded), for logs. */
  message: string;
  /**
   * A minimum the node named: the tip (Polygon's "minimum needed N"), the fee a replacement needs
   * (EDR), or the gas an intrinsic-gas refusal asks ("minimum needed N", "requires at least N gas").
   */
  minimum?: { field: 'tip' | 'fee'; wei: bigint } | { field: 'gas'; gas: bigint };
}

/**
 * Patterns per class, tried in order (a message naming two, e.g. "replacement transaction
 * underpriced" on a nonce clash, takes the first). Case-insensitive; each is a phrase a client
 * emits, not a guess at one.
 */
const CLASSES: ReadonlyArray<readonly [RefusalClass, RegExp]> = [
  // geth/erigon "already known", erigon "existing txn with same hash", nethermind "AlreadyKnown", besu/EDR "Known transaction".
  ['known', /already known|alreadyknown|existing txn? with same hash|known transaction|already imported/i],
  // geth/erigon/bor "nonce too low", nethermind "OldNonce", EDR "Transaction nonce too low", OpenEthereum "nonce is too low".
  ['nonce-used', /nonce too low|nonce is too low|oldnonce|nonce has already been used/i],
  ['insufficient-funds', /insufficient funds|insufficientfunds|not enough funds|doesn't have enough funds|upfront cost exceeds account balance|insufficient balance/i],
  ['intrinsic-gas', /intrinsic gas too low|intrinsicgas|requires at least \d+ gas|floor data gas|gas is too low/i],
  [
    'underpriced',
    // geth "transaction underpriced", "replacement transaction underpriced", "max fee per gas less than block base fee",
    // "transaction gas price below minimum: gas tip cap …, minimum needed …" (bor), erigon "FEE_TOO_LOW: fee too low",
    // nethermind "FeeTooLow…", arbitrum "gas price too low", EDR "maxFeePerGas (…) is too low for the next block".
    /underpriced|less than block base fee|gas price below minimum|gas tip cap|fee too low|feetoolow|gas price too low|too low for the next block|replacementnotallowed/i,
  ],
];

/** The node's message inside whatever the JSON-RPC client wrapped it in (ethers nests it). */
export function nodeMessage(err: unknown): string {
  const e = err as { info?: { error?: { message?: unknown } }; error?: { message?: unknown }; shortMessage?: unknown; message?: unknown } | null;
  const candidates = [e?.info?.error?.message, e?.error?.message, e?.shortMessage, e?.message];
  const found = candidates.find((m): m is string => typeof m === 'string' && m.length > 0);
  return (found ?? String(err)).split('\n')[0]!.slice(0, 300);
}

/** The class of a refused broadcast, with the minimum the node named when it named one. */
export function classifyBroadcastError(err: unknown): BroadcastRefusal {
  const message = nodeMessage(err);
  const found = CLASSES.find(([, pattern]) => pattern.test(message));
  const refusal: BroadcastRefusal = { class: found?.[0] ?? 'other', message };
  if (refusal.class === 'underpriced') {
    // bor/geth: "gas tip cap 1000, minimum needed 25000000000"; EDR: "… of at least 1703637175 is necessary to replace …".
    const tip = /minimum needed (\d{1,40})/i.exec(message);
    const fee = /of at least (\d{1,40}) is necessary/i.exec(message);
    if (tip) refusal.minimum = { field: 'tip', wei: BigInt(tip[1]!) };
    else if (fee) refusal.minimum = { field: 'fee', wei: BigInt(fee[1]!) };
  }
  if (refusal.class === 'intrinsic-gas') {
    const gas = /minimum needed (\d{1,20})|requires at least (\d{1,20}) gas/i.exec(message);
    if (gas) refusal.minimum = { field: 'gas', gas: BigInt(gas[1] ?? gas[2]!) };
  }
  return refusal;
}
