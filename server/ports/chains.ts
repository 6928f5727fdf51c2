// Long because: the chain port is one interface every chain adapter implements, beside the records its methods take and answer.
import type { AssetInfo } from '../domain/assets.ts';
import type { EvmQuoteState, EvmSubmission } from './chain-state-eip155.ts';
import type { SolanaQuoteState, SolanaSubmission } from './chain-state-solana.ts';

export type * from './chain-state-eip155.ts';
export type * from './chain-state-solana.ts';

/**
 * A chain namespace's part in paying a payment: build what the wallet must sign or send,
 * check what it sent back, submit, and follow the transfer to finality. One adapter per
 * namespace (`eip155`, `solana`); no connection or client type crosses this port.
 */

/** An action in the gateway's wire shape. */
export type WireAction = { type: 'walletRpc'; data: { chain_id: string; method: string; params: unknown[] } } | { type: 'build'; data: { data: string } };

/**
 * What an option needs to be checked later: stored with the quote, opaque to the gateway, one
 * shape per flow (discriminated by `flow`). Read back from storage as JSON, so an adapter checks
 * it at its edge and answers a typed error (never a crash) when it is not one of its shapes.
 */
export type QuoteState = EvmQuoteState | SolanaQuoteState;

export interface OptionRequest {
  paymentId: string;
  optionId: string;
  /** The buyer's CAIP-10 account. */
  account: string;
  asset: AssetInfo;
  /** Base units of the asset. */
  amount: bigint;
  /** The merchant's CAIP-10 destination on the asset's chain. */
  destination: string;
  /** Quote deadline. */
  deadline: Date;
  /** When the option was quoted: a transaction the wallet broadcast for it cannot be older. */
  quotedAt: Date;
  /**
   * The stored state when an existing quote is offered again: what must stay as first quoted
   * (where a search for its transaction starts) is carried over rather than taken anew.
   */
  previous?: QuoteState;
  /**
   * Why the service may not pay this option's fees (the partner's fee budget on this chain is
   * spent): the adapter then offers only a flow where the buyer pays them, or nothing. Absent: it may.
   */
  feesRefused?: string;
  /**
   * The amount's worth in micro-USD, when the price table can tell (null otherwise): what the
   * service's expected fee for a gasless flow is weighed against.
   */
  valueUsdMicros?: bigint | null;
}

export interface PreparedOption {
  actions: WireAction[];
  state: QuoteState;
  /** Estimated seconds to finality. */
  etaS: number;
}

/** No option for this account and asset, and why (for the options answer's `reason`). */
export interface UnavailableOption {
  unavailable: string;
}

/** The submission the confirm step accepted, run later by a job; one shape per flow, like QuoteState. */
export type Submission = EvmSubmission | SolanaSubmission;

export type VerifyOutcome =
  | { ok: true; submission: Submission; /** Known at confirm time (the wallet broadcast it). */ txId?: string }
  | { ok: false; code: 'invalid_results' | 'invalid_signature' | 'quote_expired'; message: string };

/**
 * What one of the service's own transactions cost its fee account (relayer gas with any L1 data
 * fee, the Solana fee payer's fee and rent), read from the chain once it is included. Reported by
 * every step that sees it, so the caller records it idempotently by (chain, txId).
 */
export interface FeeSpent {
  /** The fee account that paid (relayer address, fee payer key). */
  account: string;
  /** The transaction that cost it. */
  txId: string;
  /** Native base units (wei, lamports). */
  amount: bigint;
}

export type TransferState = (
  | { state: 'submitted'; txId: string }
  /** `shared`: the transaction may pay other payments too, each judged by its own authorization (see RecordedTransaction). */
  | { state: 'confirmed'; txId: string; shared?: true }
  | { state: 'failed'; reason: string; txId?: string }
  /** Not known yet (not seen, RPC error, waiting for confirmations): try again later. */
  | { state: 'pending'; txId?: string; reason?: string }
) & {
  feeSpent?: FeeSpent;
  /** This step also submitted the transaction it answers about (it waited for it in the same run): counted as a submission too. */
  submittedNow?: true;
};

/**
 * Where a succeeded payment's transaction stands against the chain's finality: `final` once its
 * block can no longer be reorganized away (with the transaction that paid); `reversed` when its
 * block was dropped and nothing can pay any more (the authorization lapsed, its nonce went to
 * another transaction); `pending` otherwise (not final yet, re-sent, RPC error).
 */
export type FinalityState = { state: 'final'; txId: string } | { state: 'pending'; reason: string } | { state: 'reversed'; reason: string };

/**
 * What a search for late funds found: a transaction, final on its chain, that paid an option of a
 * payment that had already ended (expired, failed), or nothing in the blocks read.
 */
/** `shared`: the transaction may have paid other payments too (an EIP-3009 authorization used in a relayer batch). */
export type LateFunds = { found: true; txId: string; shared?: true } | { found: false };

/** One late-funds watcher run over a chain: what every quote's search reads alike (the final head) is read once. */
export interface LateFundsPass {
  /** `read()` under `key`, called once per pass; later callers share its answer (or its failure). */
  once<T>(key: string, read: () => Promise<T>): Promise<T>;
}

/** A transaction the service signed for a payment, recorded before it was broadcast. */
export interface RecordedTransaction {
  txId: string;
  /** The signed transaction's bytes, so it can be broadcast again after a crash. */
  rawTx: string;
  /**
   * The transaction may pay other payments too (an EIP-3009 relayer batch), each judged on chain by
   * its own authorization: the storage lets every one of them hold the id. Absent: this payment's alone.
   */
  shared?: true;
  /**
   * A replacement of `replaces` at its nonce (fees bumped, gas raised): every processing payment
   * holding `replaces` as shared takes it too, not only this one (the others would send bytes the
   * node refuses). Never for a transaction at a new nonce: each payment re-signs its own then.
   */
  everyHolder?: true;
}

/** What a relayer flow needs from the payment's storage while it advances. */
export interface AdvanceContext {
  /** The signed bytes recorded with the known tx id, when the service signed it; null otherwise. */
  rawTx: string | null;
  /** The payment's id: the service's nonce counter records its transaction in the same database transaction (ports/relayer-nonces.ts). */
  paymentId?: string;
  /**
   * When the known tx id was recorded (null when none was, or unknown): how long a relayer
   * transaction the node holds has gone unmined, so it is replaced at its nonce with a higher fee.
   */
  recordedAt: Date | null;
  /**
   * Records a signed transaction before it is broadcast: in place of `replaces` (the tx id
   * recorded now), or as the first one when null. False when the payment moved on or another
   * transaction was recorded meanwhile: then nothing may be broadcast.
   */
  record(tx: RecordedTransaction, replaces: string | null): Promise<boolean>;
}

/** An account the service pays fees from on a chain, with what it holds and what it should hold. */
export interface ServiceAccount {
  role: 'relayer' | 'fee-payer';
  /** CAIP-2. */
  chain: string;
  /** The account's address on that chain. */
  account: string;
  /** Native base units (wei, lamports); null when the node could not be read. */
  balance: bigint | null;
  /** Below this the account may not pay the next fees: operators must top it up. */
  minimum: bigint;
}

/**
 * What the node behind one of the adapter's chains answered when asked which chain it serves
 * (`eth_chainId`; Solana's genesis hash). `served` is that chain as CAIP-2, compared by the caller
 * with `chain`; null with `error` when the node could not be read.
 */
export interface NodeHealth {
  /** The CAIP-2 chain the adapter is configured for. */
  chain: string;
  served: string | null;
  /**
   * False when the node's answer cannot name a CAIP-2 reference to compare: a Solana cluster
   * configured under a name (`solana:sandbox`) rather than its genesis hash. Reachability alone counts then.
   */
  comparable: boolean;
  error?: string;
}

/**
 * One self-check of the configuration against the chain it names (at start and in `npm run
 * doctor`): a token's decimals and EIP-712 domain, Permit2's code, an endpoint's head. `fail`: the
 * chain disagrees, and what the adapter refuses to offer for it is in `detail`; `unknown`: it could
 * not be read now (nothing is refused for that, the check runs again before the asset is offered).
 */
export interface SelfCheck {
  /** CAIP-2. */
  chain: string;
  /** What was checked: `token USDC`, `permit2`, `head http://host:port`. */
  subject: string;
  outcome: 'pass' | 'fail' | 'unknown';
  detail: string;
  /** Whether a failure stops something being offered (a configuration mismatch), or only tells (an endpoint behind). */
  refuses: boolean;
}

export interface ChainPort {
  readonly namespace: string;
  /** Whether this adapter can pay on the CAIP-2 chain. */
  supportsChain(caip2: string): boolean;
  /** Whether `account` (a bare address) is valid on this namespace. */
  isValidAddress(address: string): boolean;
  /**
   * The option for one account and asset: the best flow the account may use (a buyer whose
   * account has code, an amount below the asset's gasless minimum or whose fee would be out of
   * proportion, a relayer that cannot pay, or `feesRefused` leave only flows where the buyer pays
   * the fees), or `unavailable` with the reason when none is left.
   */
  prepareOption(req: OptionRequest): Promise<PreparedOption | UnavailableOption>;
  /** Resolves a build action (fetch); may refresh the stored state. */
  fetchActions?(req: OptionRequest, state: QuoteState, data: string): Promise<{ actions: WireAction[]; state: QuoteState }>;
  /** How many results confirm must carry, given the stored state (after any fetch). */
  expectedResults(state: QuoteState): number;
  /** Checks the wallet's results (one string per action) against what was prepared. */
  verifyResults(req: OptionRequest, state: QuoteState, results: string[]): Promise<VerifyOutcome>;
  /**
   * Moves the submission forward one step (submit, or check confirmation), idempotently: given
   * the tx id already recorded, it checks rather than submits again. Flows where the service
   * signs the transaction (EVM relayer) record it through `ctx` before broadcasting it, and
   * refuse to submit without one. Never `failed` while funds may have moved: when the buyer's
   * signature was used by a transaction other than ours, the blocks it could be in (from the
   * quote to its deadline, in bounded pages) are searched first, and a transaction there that
   * paid the destination confirms the payment with its own id.
   */
  advance(req: OptionRequest, submission: Submission, knownTxId: string | null, ctx?: AdvanceContext): Promise<TransferState>;
  /**
   * Follows a succeeded payment's transaction `txId` one step toward the chain's finality: checks
   * its receipt's block is canonical, sends the recorded bytes (`rawTx`) again when its block was
   * dropped while the authorization is valid, never signs anything new. Absent: the adapter
   * confirms only at its chain's finality already (nothing to follow).
   */
  followFinality?(req: OptionRequest, submission: Submission, txId: string, rawTx: string | null): Promise<FinalityState>;
  /**
   * Looks for funds that paid this quoted option after its payment ended (a tagged direct transfer
   * sent after expiry): only transactions final on the chain, judged as `advance` judges one.
   * Throws when the chain could not be read in full. Absent, or `found: false` for flows it cannot
   * search yet: nothing is concluded. `known`: transactions already accounted for (the one that
   * paid a succeeded payment, extra ones already recorded), passed over, so a second payment for
   * the same option is found after the first (paid twice). `pass`: the watcher's run (shared reads).
   */
  findLateFunds?(req: OptionRequest, state: QuoteState, known?: ReadonlySet<string>, pass?: LateFundsPass): Promise<LateFunds>;
  /**
   * Whether the final transaction `txId` pays all these options at once (a batch wallet paying two
   * payments): each a direct transfer whose tag is in its input, its transfers into each destination
   * covering the sum due there. Absent: one transaction pays at most one payment.
   */
  paysTogether?(options: ReadonlyArray<{ req: OptionRequest; state: QuoteState }>, txId: string): Promise<boolean>;
  /**
   * A transaction for the wallet to sign and broadcast itself (a Solana Pay transaction request),
   * the buyer paying its fees: the service's fee account is never in it. While the option's last
   * such transaction can still land, the same one again (so two requests cannot pay twice), else a
   * new one; the state to store comes back with it. `findLateFunds` then finds whichever landed,
   * for an open payment as for an ended one. Absent: the chain offers no such flow.
   */
  walletTransaction?(req: OptionRequest, state: QuoteState): Promise<{ transaction: string; state: QuoteState } | { refused: string }>;
  /** The accounts paying fees on this adapter's chains, balances read now (the caller caches). */
  accounts?(): Promise<ServiceAccount[]>;
  /**
   * Asks each chain's node which chain it serves, now (the caller caches): one answer per chain,
   * a node slower than `timeoutMs` (default 3 s) answering as unreachable.
   */
  health?(opts?: { timeoutMs?: number }): Promise<NodeHealth[]>;
  /**
   * Checks `assets` (those on this adapter's chains) and each RPC endpoint against the chain now.
   * A token or contract that disagrees with its configuration is never offered afterwards (the
   * adapter keeps the verdict; `prepareOption` runs the same check first when it has none yet).
   */
  selfCheck?(assets: AssetInfo[], opts?: { timeoutMs?: number }): Promise<SelfCheck[]>;
}

/** True when the node answered and serves the chain configured (or could only be compared by reachability). */
export const nodeServesChain = (h: NodeHealth): boolean => h.served !== null && (!h.comparable || h.served === h.chain);

export interface ChainRegistry {
  forChain(caip2: string): ChainPort | undefined;
}

export function createChainRegistry(ports: ChainPort[]): ChainRegistry {
  return { forChain: (caip2) => ports.find((p) => p.supportsChain(caip2)) };
}

/**
 * One node's health from `ask` (the CAIP-2 chain it says it serves), bounded by `timeoutMs`: what
 * every adapter's `health` does around its own question. The error keeps the first line of the
 * driver's message for the logs and the doctor; /readyz publishes none of it.
 */
export async function checkNode(chain: string, comparable: boolean, ask: () => Promise<string>, timeoutMs = 3_000): Promise<NodeHealth> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs)));
  try {
    return { chain, served: await Promise.race([ask(), late]), comparable };
  } catch (err) {
    const message = (err as { shortMessage?: string }).shortMessage ?? (err instanceof Error ? err.message : String(err));
    return { chain, served: null, comparable, error: `rpc unreachable: ${message.split('\n')[0]!.slice(0, 160)}` };
  } finally {
    clearTimeout(timer);
  }
}

/** The option `prepareOption` answered, or an error naming why there is none: for callers that expect one. */
export function expectOption(prepared: PreparedOption | UnavailableOption): PreparedOption {
  if ('unavailable' in prepared) throw new Error(`no option offered: ${prepared.unavailable}`);
  return prepared;
}
