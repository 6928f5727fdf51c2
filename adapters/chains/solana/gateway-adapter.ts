// Long because: the Solana chain port in one place (prepare, fetch, confirm, advance, finality, self-checks) over the shared per-cluster state (blockhash, fees, seen token accounts); each step's logic lives in its own module.
import { PublicKey, type Keypair } from '@solana/web3.js';
import {
  checkNode,
  type ChainPort,
  type FinalityState,
  type OptionRequest,
  type SplQuoteState,
  type SplSubmission,
  type TransferState,
  type VerifyOutcome,
} from '../../../server/ports/chains.ts';
import { AppError } from '../../../server/errors.ts';
import { parseSplQuoteState, parseSplSubmission } from './state.ts';
import type { SolanaCommitment, SolanaRpc } from './rpc.ts';
import { deriveReference } from './reference.ts';
import { buildPaymentTransaction } from './build.ts';
import { verifySignedTransaction, type VerifyFailure } from './verify.ts';
import { checkTransaction, isBlockhashExpired, type TransactionCheck } from './status.ts';
import { followSolanaFinality, type SolanaFinality } from './finality.ts';
import { submitTransaction } from './submit.ts';
import { followerOf } from './follow.ts';
import { cosignAndSimulate, simulateSigned } from './cosign.ts';
import { destinationProblem, mintProblem } from './payable.ts';
import { selfCheckSolanaChain } from './self-checks.ts';
import type { HeadFreshnessBound } from '../head-freshness.ts';
import type { SolanaFeePolicy } from './fees.ts';
import { signTransactionAction } from './action.ts';
import { decodeBase64Strict } from './wire.ts';
import { cosignerOf, findWalletPayment, tokenUnits, walletBuildFor } from './transaction-request.ts';

/** One Solana cluster the service pays on. */
export interface SolanaChainConfig {
  /** CAIP-2, e.g. `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp` or `solana:sandbox`. */
  caip2: string;
  connection: SolanaRpc;
  /** The service's key: fee payer (and destination ATA rent) of every payment transaction. */
  feePayer: Keypair;
  /** Commitment at which a payment counts as succeeded (default `confirmed`). */
  commitment?: SolanaCommitment;
  /**
   * Commitment at which a succeeded payment's transfer is final (default `finalized`): until then
   * the finality job follows it (finality.ts). `confirmed` follows nothing past success.
   */
  finality?: SolanaFinality;
  etaS?: number;
  /** Below this balance (lamports) the fee payer shows as low (default 0.05 SOL). */
  minFeePayerLamports?: bigint;
  /** Priority fee percentile and caps (default DEFAULT_SOLANA_FEE_POLICY). */
  fees?: SolanaFeePolicy;
  /**
   * Sandbox only: the fee payer opens a destination's missing token account (its rent is free
   * sandbox SOL). Never in production: the rent is reclaimable by whoever owns the address.
   */
  openDestinationAccounts?: boolean;
  /**
   * How long a settlement job waits on the cluster's follow loop (follow.ts) for a transaction it
   * has sent, ms: the loop checks every waiting transaction together each slot window and re-sends
   * the unseen ones, so the job answers when the chain does instead of running again every second.
   * Absent or 0: the job checks once after sending and runs again later.
   */
  followMs?: number;
  /** The cluster's RPC URLs, for the self-checks to ask each on its own (absent: the node behind `connection`). */
  endpoints?: readonly string[];
  /** How stale an endpoint's head may be before the self-checks fail it (server/chain-profiles.ts). */
  headFreshness?: HeadFreshnessBound;
}

/** The default of `minFeePayerLamports`: 0.05 SOL, thousands of fees plus a few token account rents. */
export const DEFAULT_MIN_FEE_PAYER_LAMPORTS = 50_000_000n;

/**
 * Confirm refuses a transaction this close to its last valid block height with `quote_expired`: the
 * wallet fetches a fresh one instead of the payment failing a few seconds later. 20 blocks (~8 s at
 * 400 ms) leave the job several re-sends to land it; a blockhash lives 150 blocks, so the buyer still
 * has ~130 blocks (~50 s) after fetch to sign, the time a person takes to read and approve.
 */
const EXPIRY_MARGIN_BLOCKS = 20;
/** How long a destination token account seen is taken as still there (see destinationCheck). */
const DESTINATION_SEEN_MS = 60_000;
const MAX_DESTINATIONS_SEEN = 10_000;
const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

const keyOf = (caip10: string) => new PublicKey(caip10.split(':')[2]!);

/** The stored quote state, or a typed refusal: an unreadable quote is asked for again, never crashed on. */
function quoteStateOf(raw: unknown): SplQuoteState {
  const parsed = parseSplQuoteState(raw);
  if (!parsed.ok) throw new AppError('quote_expired', `This option cannot be used (${parsed.problem}); ask for options again`);
  return parsed.value;
}

const REFUSALS: Record<VerifyFailure, string> = {
  not_a_transaction: 'the result must be the whole signed transaction, base64-encoded',
  message_mismatch: 'the transaction is not the one the service built for this option (changed, for another payment, or from an earlier fetch)',
  signature_count_mismatch: 'the transaction carries a different number of signatures than it requires',
  unexpected_fee_payer: 'the transaction’s fee payer is not the service',
  buyer_not_signer: 'the option’s account is not a signer of this transaction',
  unexpected_signer: 'the transaction requires a signer other than the buyer and the service',
  missing_buyer_signature: 'the buyer’s signature is missing',
  invalid_buyer_signature: 'the buyer’s signature does not verify (another key signed, or the message changed)',
  fee_payer_slot_filled: 'the service’s signature slot must be left empty: the service signs last, after checking the transaction',
};

/**
 * The Solana adapter of the chain port (design "How Solana is paid"). Options carry one `build`
 * action; fetch builds a fresh SPL `transferChecked` transaction (service as fee payer, reference key
 * derived from payment and option) and asks the wallet for `solana_signTransaction` only; confirm
 * accepts exactly the latest built message signed by the option's account, and the job broadcasts it
 * and follows its signature, known since the build, so a crash cannot lose the transaction id.
 */
export function createSolanaChainAdapter(chains: SolanaChainConfig[]): ChainPort {
  const byChain = new Map(chains.map((c) => [c.caip2, c]));
  // A mint's program never changes: checked once per mint (a failed read is asked again).
  const mintChecks = new Map<string, Promise<string | null>>();
  const checkMint = (c: SolanaChainConfig, mint: string, decimals: number) => {
    const key = `${c.caip2}/${mint}/${decimals}`;
    let check = mintChecks.get(key);
    if (!check) {
      check = mintProblem(c.connection, new PublicKey(mint), decimals);
      check.catch(() => mintChecks.delete(key));
      mintChecks.set(key, check);
    }
    return check;
  };
  // A destination's token account, once seen, is taken as there for a while: every payment to a
  // merchant asks, and a node throttling or behind must not drop Solana from options. Closed
  // meanwhile, the transfer fails its simulation at confirm, before the fee payer signs anything.
  const accountsSeen = new Map<string, number>();
  const destinationCheck = async (c: SolanaChainConfig, mint: PublicKey, owner: PublicKey): Promise<string | null> => {
    const key = `${c.caip2}/${mint.toBase58()}/${owner.toBase58()}`;
    const seen = accountsSeen.get(key);
    if (seen !== undefined && Date.now() - seen < DESTINATION_SEEN_MS) return null;
    const problem = await destinationProblem(c.connection, mint, owner);
    if (problem === null) {
      accountsSeen.delete(key);
      accountsSeen.set(key, Date.now());
      if (accountsSeen.size > MAX_DESTINATIONS_SEEN) accountsSeen.delete(accountsSeen.keys().next().value!);
    }
    return problem;
  };
  const chainOf = (req: OptionRequest) => {
    const c = byChain.get(`${req.asset.parsed.chain.namespace}:${req.asset.parsed.chain.reference}`);
    if (!c) throw new Error(`no Solana chain configured for ${req.asset.id}`);
    return c;
  };

  return {
    namespace: 'solana',
    supportsChain: (caip2) => byChain.has(caip2),
    // A buyer must sign, so an off-curve (program-derived) address cannot be one.
    isValidAddress: (address) => {
      if (!BASE58_KEY.test(address)) return false;
      try {
        return PublicKey.isOnCurve(new PublicKey(address).toBytes());
      } catch {
        return false;
      }
    },

    async prepareOption(req) {
      const c = chainOf(req);
      if (!req.asset.flows.includes('spl')) throw new Error(`${req.asset.id} is not payable by SPL transfer`);
      const mint = new PublicKey(req.asset.parsed.assetReference);
      const problem = (await checkMint(c, mint.toBase58(), req.asset.decimals)) ?? (c.openDestinationAccounts ? null : await destinationCheck(c, mint, keyOf(req.destination)));
      if (problem) return { unavailable: problem };
      const state: SplQuoteState = {
        flow: 'spl',
        mint: req.asset.parsed.assetReference,
        decimals: req.asset.decimals,
        destinationOwner: keyOf(req.destination).toBase58(),
        amount: req.amount.toString(),
      };
      // The transaction is built at fetch, not here: a blockhash lives ~60–90 s, a quote longer.
      return { etaS: c.etaS ?? 5, state, actions: [{ type: 'build', data: { data: req.optionId } }] };
    },

    async fetchActions(req, state) {
      const c = chainOf(req);
      const s = quoteStateOf(state);
      const built = await buildPaymentTransaction({
        connection: c.connection,
        feePayer: c.feePayer.publicKey,
        buyer: keyOf(req.account),
        mint: new PublicKey(s.mint),
        decimals: s.decimals,
        destinationOwner: new PublicKey(s.destinationOwner),
        amount: BigInt(s.amount),
        reference: deriveReference(req.paymentId, req.optionId),
        ...(c.commitment ? { commitment: c.commitment } : {}),
        ...(c.fees ? { fees: c.fees } : {}),
        ...(c.openDestinationAccounts ? { openDestination: true } : {}),
      });
      // No signature is stored: the fee payer signs only at confirm.
      const { signature: _earlier, ...rest } = s;
      const next: SplQuoteState = { ...rest, messageBase64: built.messageBase64, lastValidBlockHeight: built.lastValidBlockHeight };
      return { state: next, actions: [signTransactionAction(c.caip2, built.transactionBase64)] };
    },

    expectedResults: (state) => {
      quoteStateOf(state);
      return 1;
    },

    async verifyResults(req, state, results): Promise<VerifyOutcome> {
      const c = chainOf(req);
      const parsed = parseSplQuoteState(state);
      if (!parsed.ok) return { ok: false, code: 'quote_expired', message: `this option cannot be used (${parsed.problem}); ask for options again` };
      const s = parsed.value;
      if (!s.messageBase64 || s.lastValidBlockHeight === undefined) {
        return { ok: false, code: 'invalid_results', message: 'fetch the build action first: this option has no transaction to sign yet' };
      }
      const signed = results[0] ?? '';
      const verdict = verifySignedTransaction(signed, { messageBase64: s.messageBase64, buyer: keyOf(req.account), feePayer: c.feePayer.publicKey });
      if (!verdict.ok) {
        // 64 bytes is a detached signature: a signature problem, not a malformed result.
        const detached = decodeBase64Strict(signed)?.length === 64;
        if (verdict.reason === 'not_a_transaction' && !detached) return { ok: false, code: 'invalid_results', message: REFUSALS.not_a_transaction };
        return {
          ok: false,
          code: 'invalid_signature',
          message: detached ? 'a detached signature was sent; return the whole signed transaction, base64-encoded' : REFUSALS[verdict.reason],
        };
      }
      // The height and the simulation are asked at once (one round trip of the node's latency, not
      // two): the signature the simulation carries never leaves the process, and a transaction too
      // close to its last valid height is refused whatever the simulation said.
      const [expired, cosigned] = await Promise.all([
        // RPC trouble: the simulation asks the node too and answers bad_gateway if it is down.
        isBlockhashExpired(c.connection, s.lastValidBlockHeight, EXPIRY_MARGIN_BLOCKS).catch(() => false),
        cosignAndSimulate(c.connection, verdict.wire, c.feePayer),
      ]);
      if (expired) return { ok: false, code: 'quote_expired', message: 'this transaction’s blockhash has expired; fetch the build action again and sign the new transaction' };
      if (cosigned.status === 'rpc_error') throw new AppError('bad_gateway', 'The Solana node could not check this transaction; confirm again in a moment');
      if (cosigned.status === 'would_fail') {
        if (cosigned.blockhashExpired)
          return { ok: false, code: 'quote_expired', message: 'this transaction’s blockhash has expired; fetch the build action again and sign the new transaction' };
        return {
          ok: false,
          code: 'invalid_results',
          message: `the transaction would fail on chain (${cosigned.reason.slice(0, 200)}); check the account’s token balance, then fetch and sign again`,
        };
      }
      const submission: SplSubmission = { flow: 'spl', transaction: cosigned.transactionBase64, signature: cosigned.signature, lastValidBlockHeight: s.lastValidBlockHeight };
      return { ok: true, submission, txId: cosigned.signature };
    },

    async advance(req, submission, knownTxId): Promise<TransferState> {
      const c = chainOf(req);
      const parsed = parseSplSubmission(submission);
      // Not this adapter's shape: nothing can be said about the transfer, so the payment is not ended.
      if (!parsed.ok) throw new AppError('invalid_state', `cannot advance this payment: ${parsed.problem}`);
      const sub = parsed.value;
      const txId = knownTxId ?? sub.signature;
      const check = () => checkTransaction(c.connection, txId, { commitment: c.commitment ?? 'confirmed', lastValidBlockHeight: sub.lastValidBlockHeight });
      const first = await check();
      if (first.status === 'confirmed') return { state: 'confirmed', txId };
      if (first.status === 'failed') return { state: 'failed', reason: first.reason, txId };
      if (first.status === 'unknown') return { state: 'pending', txId, reason: first.reason };
      // Not seen (or not yet at the commitment) while the blockhash is valid: simulate, then (re)send
      // the same bytes. Same signature, so a node lands it at most once.
      const raw = decodeBase64Strict(sub.transaction);
      if (!raw) throw new AppError('invalid_state', 'cannot advance this payment: the stored transaction is not base64');
      const follow = () =>
        followerOf(c.connection).follow({
          signature: txId,
          lastValidBlockHeight: sub.lastValidBlockHeight,
          commitment: c.commitment ?? 'confirmed',
          forMs: c.followMs as number,
          resend: () => resendIfLandable(c.connection, raw, sub.transaction, txId),
        });
      const decided = (after: TransactionCheck): TransferState =>
        after.status === 'confirmed' ? { state: 'confirmed', txId } : after.status === 'failed' ? { state: 'failed', reason: after.reason, txId } : { state: 'submitted', txId };
      // Landed, not yet at the commitment: nothing to send, the loop answers when it gets there.
      if (first.seen && c.followMs) return decided(await follow());
      const preflight = await simulateSigned(c.connection, raw, txId);
      if (preflight.status === 'rpc_error') return { state: 'pending', txId, reason: `simulation: ${preflight.reason.slice(0, 200)}` };
      if (preflight.status === 'would_fail' && !preflight.alreadyProcessed) {
        // It would fail now (the buyer's funds moved since confirm): not sent, so not paid for;
        // the blockhash decides later.
        return { state: 'pending', txId, reason: `not sent, it would fail: ${preflight.reason.slice(0, 200)}` };
      }
      // Landed already (seen by the simulating node): follow it without sending.
      if (preflight.status === 'ok') {
        const sent = await submitTransaction(c.connection, sub.transaction);
        if (sent.status === 'rejected' || sent.status === 'unknown') {
          // A refusal is not a failure yet: the wallet holds the signed bytes and the blockhash may
          // still be valid. The next check fails it once the blockhash has expired unseen.
          return { state: 'pending', txId, reason: `${sent.status}: ${sent.reason.slice(0, 200)}` };
        }
      } else if (!c.followMs) return { state: 'submitted', txId };
      return decided(c.followMs ? await follow() : await check());
    },

    async followFinality(req, submission, txId): Promise<FinalityState> {
      const c = chainOf(req);
      const parsed = parseSplSubmission(submission);
      if (!parsed.ok) throw new AppError('invalid_state', `cannot follow this payment: ${parsed.problem}`);
      // Success already counted at the final commitment: nothing left to follow.
      const finality = c.finality ?? 'finalized';
      if (finality === 'confirmed' && (c.commitment ?? 'confirmed') !== 'processed') return { state: 'final', txId };
      return followSolanaFinality(c.connection, parsed.value, txId, finality);
    },

    async walletTransaction(req, state) {
      const c = chainOf(req);
      const s = quoteStateOf(state);
      const outcome = await walletBuildFor(
        c.connection,
        {
          buyer: keyOf(req.account),
          mint: new PublicKey(s.mint),
          decimals: s.decimals,
          destinationOwner: new PublicKey(s.destinationOwner),
          amount: BigInt(s.amount),
          ...(c.commitment ? { commitment: c.commitment } : {}),
          ...(c.fees ? { fees: c.fees } : {}),
        },
        cosignerOf(c.feePayer, req.paymentId, req.optionId),
        s.walletBuilds ?? [],
      );
      if (outcome.status === 'exhausted') return { refused: 'This option has handed out as many transactions as it may; scan again for a new one' };
      if (outcome.status === 'short') {
        const has = `${tokenUnits(outcome.balance, s.decimals)} ${req.asset.symbol}`;
        return { refused: `This account holds ${has}; the payment needs ${tokenUnits(BigInt(s.amount), s.decimals)} ${req.asset.symbol}. Add funds, then scan again` };
      }
      return { transaction: outcome.transaction, state: { ...s, walletBuilds: outcome.builds } };
    },

    // Only transactions the wallet broadcasts itself can land without the service: Solana Pay's.
    async findLateFunds(req, state) {
      const c = chainOf(req);
      const parsed = parseSplQuoteState(state);
      if (!parsed.ok || !parsed.value.walletBuilds?.length || BigInt(parsed.value.amount) !== req.amount) return { found: false };
      const cosigner = cosignerOf(c.feePayer, req.paymentId, req.optionId).publicKey;
      const txId = await findWalletPayment(c.connection, cosigner, keyOf(req.account), parsed.value.walletBuilds);
      return txId ? { found: true, txId } : { found: false };
    },

    accounts: () =>
      Promise.all(
        chains.map(async (c) => ({
          role: 'fee-payer' as const,
          chain: c.caip2,
          account: c.feePayer.publicKey.toBase58(),
          // No account at all holds nothing: a fee payer never funded reads as empty, not as an error.
          balance: await c.connection.getAccountInfo(c.feePayer.publicKey, 'confirmed').then(
            (info) => BigInt(info?.lamports ?? 0),
            () => null,
          ),
          minimum: c.minFeePayerLamports ?? DEFAULT_MIN_FEE_PAYER_LAMPORTS,
        })),
      ),

    health: (o) => Promise.all(chains.map((c) => nodeHealth(c, o?.timeoutMs))),

    selfCheck: async (assets, o) =>
      (await Promise.all(chains.map((c) => selfCheckSolanaChain(c, assets, (a) => checkMint(c, a.parsed.assetReference, a.decimals), o?.timeoutMs ?? 5_000)))).flat(),
  };
}

/**
 * The follow loop's re-broadcast: the same bytes, simulated first (a buyer who emptied the token
 * account since confirm must not make the fee payer land a failing transfer), `maxRetries: 0`.
 * Whatever the node answers, the loop's next checks decide; nothing here ends the payment.
 */
async function resendIfLandable(connection: SolanaRpc, raw: Uint8Array, transaction: string, signature: string): Promise<void> {
  const preflight = await simulateSigned(connection, raw, signature);
  if (preflight.status === 'ok') await submitTransaction(connection, transaction);
}

/** A CAIP-2 reference naming a cluster by its genesis hash (its first 32 base58 characters). */
const GENESIS_REFERENCE = /^[1-9A-HJ-NP-Za-km-z]{32}$/;

/**
 * The node's genesis hash is the cluster's identity. A cluster configured under a name instead
 * (`solana:sandbox`, a local validator) cannot be compared: reachability alone counts for it.
 */
const nodeHealth = (c: SolanaChainConfig, timeoutMs?: number) =>
  checkNode(c.caip2, GENESIS_REFERENCE.test(c.caip2.slice('solana:'.length)), async () => `solana:${(await c.connection.getGenesisHash()).slice(0, 32)}`, timeoutMs);
