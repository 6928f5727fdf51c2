// What the EVM (`eip155`) adapter stores with a quote and hands to the job, per flow. Stored as JSON
// and read back: the adapter checks it at its edge (adapters/chains/evm/state.ts) before use.

/** One field of an EIP-712 struct type. */
export type TypedDataField = { name: string; type: string };

/** Domain fields used by the tokens and contracts we sign for (absent fields are omitted). */
export type Eip712Domain = {
  name?: string;
  version?: string;
  /** Hex quantity as the reference gateway sends it (e.g. "0x2105"); wallets also accept numbers. */
  chainId?: string | number;
  verifyingContract?: string;
};

/**
 * The `eth_signTypedData_v4` payload: `types` includes `EIP712Domain`, integers are hex
 * quantities ("0x2105", as the reference gateway sends them: JSON-safe, never floats),
 * addresses are EIP-55 checksummed.
 */
export type Eip712TypedData = {
  types: Record<string, TypedDataField[]>;
  primaryType: string;
  domain: Eip712Domain;
  message: Record<string, unknown>;
};

/**
 * The chain head when the option was first quoted: where a search for a transaction that used
 * the buyer's signature starts (nothing signed for this quote can be older). Absent on quotes
 * stored before it was kept; the adapter then finds the block by the quote's time.
 */
type QuoteBlock = { quoteBlock?: number };

/** EIP-3009: the buyer signs `TransferWithAuthorization` to the destination; the relayer submits. */
export type Eip3009QuoteState = { flow: 'eip3009'; typedData: Eip712TypedData } & QuoteBlock;
/**
 * Permit2 with witness; `approve` when the option asks for an approval first (two actions), and
 * `resetApproval` when a token that refuses non-zero → non-zero approvals (USDT) must first be
 * approved to 0 (three actions).
 */
export type Permit2QuoteState = { flow: 'permit2'; typedData: Eip712TypedData; approve: boolean; resetApproval?: boolean } & QuoteBlock;
/** Direct ERC-20 transfer: everything is rebuilt from the payment, nothing to keep. */
export type TransferQuoteState = { flow: 'transfer' };
export type EvmQuoteState = Eip3009QuoteState | Permit2QuoteState | TransferQuoteState;

export type Eip3009Submission = { flow: 'eip3009'; typedData: Eip712TypedData; signature: string } & QuoteBlock;
/** `approvals`: the hashes of the buyer's approval transactions, in order: the first submission waits until they are mined. */
export type Permit2Submission = { flow: 'permit2'; typedData: Eip712TypedData; signature: string; approvals?: string[] } & QuoteBlock;
/** A submission the service's relayer sends. */
export type RelayerSubmission = Eip3009Submission | Permit2Submission;
/** The wallet broadcast it: the job follows the hash confirm recorded. */
export type TransferSubmission = { flow: 'transfer' };
export type EvmSubmission = RelayerSubmission | TransferSubmission;
