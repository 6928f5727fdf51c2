// Long because: the chain port of every EVM flow is assembled here (prepare, fetch, confirm, advance, finality, accounts, health, self-checks) over each chain's shared state (reads, relayer queue, domains); each flow's logic lives in its own module.
import { isAddress, type Provider, type Wallet } from 'ethers';
import { servedChain } from './served-chain.ts';
import { checksummed } from './address.ts';
import {
  checkNode,
  type ChainPort,
  type EvmQuoteState,
  type AdvanceContext,
  type OptionRequest,
  type PreparedOption,
  type TransferState,
  type UnavailableOption,
  type VerifyOutcome,
  type WireAction,
} from '../../../server/ports/chains.ts';
import { AppError } from '../../../server/errors.ts';
import { parseEvmQuoteState, parseEvmSubmission } from './state.ts';
import { buildTransferWithAuthorization, readTokenDomain, verifyTransferWithAuthorization, type TokenDomain } from './eip3009.ts';
import { approvalProblem, approvalsNeeded } from './permit2-approval.ts';
import { gaslessRefusal } from './gasless-policy.ts';
import { cachedByKey, createChainReads, prefetchOfferReads } from './offer-reads.ts';
import type { RelayerEvent } from './relayer-submit.ts';
import { createRelayerPool, type RelayerKey } from './relayer-pool.ts';
import { createRelayerBatcher } from './relayer-batch.ts';
import { receiptFollowerOf } from './receipt-follow.ts';
import { relayerFeeSpent } from './fee-meter.ts';
import { DEFAULT_MAX_FEE_PER_GAS } from './replacement.ts';
import { buildPermitWitnessTransferFrom, verifyPermitWitnessTransferFrom } from './permit2-witness.ts';
import { namesSpenderContract, permit2SpenderAddress, spenderPaymentOf } from './permit2-spender.ts';
import type { Eip712TypedData } from './typed-data.ts';
import { advanceRelayerFlow } from './relayer-flow.ts';
import { followFinality, followOnlyContext, type EvmFinality } from './finality.ts';
import { authorizationEnd } from './submission-guards.ts';
import { findLateAuthorization, findLateDirectTransfer, findLateSpenderPermit, lastFinalBlock, paysTogether } from './late-funds.ts';
import { advanceDirectTransfer, checkDirectTransferResult, prepareDirectTransfer } from './direct-transfer.ts';
import { deriveNonce, derivePaymentReference } from './nonce.ts';
import { sendTransactionParams, signTypedDataV4Params } from './wallet-rpc.ts';
import { systemClock, type Clock } from '../../../server/ports/clock.ts';
import type { ExclusiveSections } from '../../../server/ports/exclusive-sections.ts';
import type { RelayerNonces } from '../../../server/ports/storage/relayer-nonces.ts';
import type { AssetInfo } from '../../../server/domain/assets.ts';
import type { HeadFreshnessBound } from '../head-freshness.ts';
import { createConfigChecks, selfCheckChain } from './self-checks.ts';

/** One EVM chain the service pays on. */
export interface EvmChainConfig {
  /** CAIP-2, e.g. `eip155:8453`. */
  caip2: string;
  provider: Provider;
  /** Reads that only build an offer (no freshness guard, batched: MultiEndpointProvider.offerReads()); default `provider`. */
  offerProvider?: Provider;
  /** Pays gas for the gasless flows and is the Permit2 spender: the pool's first key. */
  relayer: Wallet;
  /** Every relayer key of the chain (EVM_RELAYER_KEYS), `relayer` among them; default `[relayer]`. */
  relayers?: Wallet[];
  permit2: string;
  confirmations: number;
  etaS?: number;
  /** The service's time (default the system's): when a direct transfer's hash is given up on, when a relayer transaction is replaced. */
  clock?: Clock;
  /** A relayer transaction the node holds unmined this long is replaced with higher fees (default 45 s). */
  replaceAfterMs?: number;
  /** The highest maxFeePerGas the relayer signs, wei (default 500 gwei). */
  maxFeePerGas?: bigint;
  /** The lowest tip the chain's nodes accept, wei (Polygon PoS: 25 gwei; default none). */
  minPriorityFee?: bigint;
  /** Below this native balance (wei) the relayer shows as low and gasless options stop (default 0.01 ETH). */
  minRelayerBalance?: bigint;
  /** The chain's usual block interval, ms: nothing is sent within a few blocks of an authorization's deadline (default 12 s). */
  blockTimeMs?: number;
  /** The native coin's price in micro-USD: a gasless flow is offered only while its expected gas is within `gasBudgetPercent` of the amount. Absent: not weighed. */
  nativeUsdMicros?: bigint;
  /** The share of a payment's amount its expected gas may take, percent (default 10). */
  gasBudgetPercent?: number;
  /** OP-stack chains charge an L1 data fee beside gas (GasPriceOracle). */
  l1DataFee?: 'op-stack' | 'none';
  /** When a block is final (server/chain-profiles.ts); default `confirmations` deep. */
  finality?: EvmFinality;
  /** How long past the quote deadline the buyer's authorization stays valid, ms, so a dropped transaction can be sent again (default 0). */
  healWindowMs?: number;
  /** How stale an endpoint's head may be before the self-checks fail it (server/chain-profiles.ts). */
  headFreshness?: HeadFreshnessBound;
  /** Most EIP-3009 payments in one relayer transaction, through Multicall3 (default 1: no batching). */
  batchMax?: number;
  /** How long a first submission waits for others to share its transaction, ms (default 50). */
  batchWindowMs?: number;
  /** How long a relayer step waits on the chain's follow loop for its transaction (receipt-follow.ts); absent: it reads once. */
  followMs?: number;
}

/** The default of `minRelayerBalance`: 0.01 ETH, a few hundred relayed transfers on an L2. */
export const DEFAULT_MIN_RELAYER_BALANCE = 10n ** 16n;

/** The tuning of one configured chain: `EVM_REPLACE_AFTER_S` and its fee policy (server/config-chain-fees.ts). */
export type EvmRelayerTuning = Pick<
  EvmChainConfig,
  | 'replaceAfterMs'
  | 'maxFeePerGas'
  | 'minPriorityFee'
  | 'minRelayerBalance'
  | 'blockTimeMs'
  | 'nativeUsdMicros'
  | 'gasBudgetPercent'
  | 'l1DataFee'
  | 'finality'
  | 'healWindowMs'
  | 'headFreshness'
  | 'batchMax'
  | 'batchWindowMs'
  | 'followMs'
>;

/** How long a relayer transaction's fee, once read, serves the other payments it carried. */
const FEE_SPENT_TTL_MS = 60_000;

const SIGNATURE = /^0x[0-9a-fA-F]{130,}$/;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const addressOf = (caip10: string) => checksummed(caip10.split(':')[2]!);

/** The stored quote state, or a typed refusal: an unreadable quote is asked for again, never crashed on. */
function quoteStateOf(raw: unknown): EvmQuoteState {
  const parsed = parseEvmQuoteState(raw);
  if (!parsed.ok) throw new AppError('quote_expired', `This option cannot be used (${parsed.problem}); ask for options again`);
  return parsed.value;
}

/**
 * The EVM adapter of the chain port. Flows, best first: EIP-3009 (one signature, relayer
 * submits), Permit2 (signature, preceded by an approval when the allowance is short), direct
 * ERC-20 transfer (the wallet broadcasts, the service verifies). Nonces bind each signature to
 * its payment and option; a payment is never matched by amount. `sections` serializes each
 * relayer account's submissions across processes (see relayer.ts).
 */
export function createEvmChainAdapter(
  chains: EvmChainConfig[],
  opts: {
    sections?: ExclusiveSections;
    /** The service's nonce counter (relayer-nonce.ts): the key's lock is then one database transaction, the broadcast outside it. */
    nonces?: RelayerNonces;
    onRefusal?: (event: RelayerEvent) => void;
    onBatchingOff?: (chain: string, problem: string) => void;
  } = {},
): ChainPort {
  // Every process signing with one relayer key must share `sections` (PostgreSQL); without them the
  // relayer's nonces are ordered within this process only.
  const byChain = new Map(
    chains.map((c) => {
      const minRelayerBalance = c.minRelayerBalance ?? DEFAULT_MIN_RELAYER_BALANCE;
      const wallets = c.relayers?.length ? c.relayers : [c.relayer];
      const pool = createRelayerPool(wallets, {
        caip2: c.caip2,
        provider: c.provider,
        minBalance: minRelayerBalance,
        ...(opts.sections ? { sections: opts.sections } : {}),
        ...(c.clock ? { now: () => c.clock!.now() } : {}),
      });
      const primary = pool.keys[0]!;
      const limits = { maxFeePerGas: c.maxFeePerGas ?? DEFAULT_MAX_FEE_PER_GAS, minPriorityFee: c.minPriorityFee ?? 0n };
      const batcher =
        (c.batchMax ?? 1) > 1
          ? createRelayerBatcher({
              caip2: c.caip2,
              provider: c.provider,
              pool,
              max: c.batchMax!,
              windowMs: c.batchWindowMs ?? 50,
              submitChain: (k) => ({
                caip2: c.caip2,
                provider: c.provider,
                relayer: k.wallet,
                limits,
                funds: k.funds,
                ...(opts.onRefusal ? { onRefusal: opts.onRefusal } : {}),
                ...(opts.nonces ? { nonces: opts.nonces } : {}),
              }),
              ...(c.clock ? { now: () => c.clock!.now() } : {}),
              ...(opts.onBatchingOff ? { onUnavailable: (problem: string) => opts.onBatchingOff!(c.caip2, problem) } : {}),
            })
          : undefined;
      const chain = {
        ...c,
        relayer: primary.wallet,
        maxFeePerGas: c.maxFeePerGas ?? DEFAULT_MAX_FEE_PER_GAS,
        funds: primary.funds,
        pool,
        minRelayerBalance,
        ...(opts.onRefusal ? { onRefusal: opts.onRefusal } : {}),
        queue: primary.queue,
        ...(batcher ? { batcher } : {}),
        ...(opts.nonces ? { nonces: opts.nonces } : {}),
        ...(c.followMs ? { follower: receiptFollowerOf(c.provider) } : {}),
        domains: new Map<string, TokenDomain>(),
      };
      const now = () => (c.clock ?? systemClock).now();
      // Every payment of a batch ends in the same window of the follow loop: its transaction's fee is read once for them all.
      const feeSpent = cachedByKey(
        FEE_SPENT_TTL_MS,
        1024,
        (txId) =>
          relayerFeeSpent(
            c.provider,
            pool.keys.map((k) => k.wallet.address),
            txId,
          ),
        now,
      );
      const checks = createConfigChecks(c.provider, c.caip2, c.permit2, (asset) => domainOf(chain, asset));
      return [c.caip2, { ...chain, feeSpent, reads: createChainReads({ ...chain, provider: c.offerProvider ?? c.provider }, now), checks }];
    }),
  );
  const chainOf = (req: OptionRequest) => {
    const c = byChain.get(`${req.asset.parsed.chain.namespace}:${req.asset.parsed.chain.reference}`);
    if (!c) throw new Error(`no EVM chain configured for ${req.asset.id}`);
    return c;
  };
  const token = (req: OptionRequest) => checksummed(req.asset.parsed.assetReference);

  /** The domain an asset's EIP-3009 authorizations are signed in: as configured (`eip712`), else the token's name() and version(). */
  async function domainOf(c: Pick<EvmChainConfig, 'provider' | 'offerProvider'> & { domains: Map<string, TokenDomain> }, asset: AssetInfo): Promise<TokenDomain> {
    if (asset.eip712) return asset.eip712;
    const tokenAddress = checksummed(asset.parsed.assetReference);
    let d = c.domains.get(tokenAddress);
    if (!d) c.domains.set(tokenAddress, (d = await readTokenDomain(c.offerProvider ?? c.provider, tokenAddress)));
    return d;
  }

  /**
   * Where a search for a transaction using this quote's signature starts: the head now for a new
   * quote (a head read a few seconds ago is earlier, so only widens the search). A quote offered
   * again keeps what it was first given, even nothing (quoted before blocks were kept): its block
   * is then found by the quote's time, which is the first quote's.
   */
  async function quoteBlockOf(c: ReturnType<typeof chainOf>, req: OptionRequest): Promise<{ quoteBlock?: number }> {
    // Unread (the node is slow or throttling): the block is found by the quote's time instead.
    if (!req.previous)
      return c.reads.head().then(
        (quoteBlock) => ({ quoteBlock }),
        () => ({}),
      );
    return 'quoteBlock' in req.previous && req.previous.quoteBlock !== undefined ? { quoteBlock: req.previous.quoteBlock } : {};
  }

  async function prepareEip3009(c: ReturnType<typeof chainOf>, req: OptionRequest): Promise<Omit<PreparedOption, 'etaS'>> {
    const from = addressOf(req.account);
    const typedData = buildTransferWithAuthorization({
      token: token(req),
      chainId: BigInt(c.caip2.split(':')[1]!),
      domain: await domainOf(c, req.asset),
      from,
      to: addressOf(req.destination),
      value: req.amount,
      validAfter: 0n,
      validBefore: authorizationEnd(c, req),
      nonce: deriveNonce(req.paymentId, req.optionId).eip3009,
    });
    return {
      state: { flow: 'eip3009', typedData, ...(await quoteBlockOf(c, req)) },
      actions: [{ type: 'walletRpc', data: { chain_id: c.caip2, method: 'eth_signTypedData_v4', params: signTypedDataV4Params(from, typedData) } }],
    };
  }

  async function preparePermit2(c: ReturnType<typeof chainOf>, req: OptionRequest): Promise<Omit<PreparedOption, 'etaS'>> {
    const from = addressOf(req.account);
    // The spender contract where it is verified on this chain (it pays only the witness destination,
    // and permits naming it are batched); else a relayer key, as before it existed. An unread check
    // is not a verified one: that quote names a key.
    const spenderContract = (await c.checks.spender().catch(() => 'unread')) === null;
    // The witness names the payment and the destination: the buyer signs where the money goes.
    const typedData = buildPermitWitnessTransferFrom({
      permit2: c.permit2,
      chainId: BigInt(c.caip2.split(':')[1]!),
      token: token(req),
      amount: req.amount,
      // Without the contract any key in the pool may be the spender; the submission is then sent by that key (keyFor).
      spender: spenderContract ? permit2SpenderAddress(c.permit2) : c.pool.pick().wallet.address,
      nonce: deriveNonce(req.paymentId, req.optionId).permit2,
      deadline: authorizationEnd(c, req),
      payment: derivePaymentReference(req.paymentId),
      destination: addressOf(req.destination),
    });
    const allowance = await c.reads.permit2Allowance(token(req), from);
    // The interface's two-action case: approve Permit2 first when the allowance is short (from 0 first where the token requires it).
    const approvals = approvalsNeeded({ token: token(req), permit2: c.permit2, owner: from, allowance, amount: req.amount, approveFromZero: req.asset.approveFromZero === true });
    const actions: WireAction[] = approvals.map((tx) => ({ type: 'walletRpc', data: { chain_id: c.caip2, method: 'eth_sendTransaction', params: sendTransactionParams(tx) } }));
    actions.push({ type: 'walletRpc', data: { chain_id: c.caip2, method: 'eth_signTypedData_v4', params: signTypedDataV4Params(from, typedData) } });
    return {
      state: { flow: 'permit2', typedData, approve: approvals.length > 0, ...(approvals.length > 1 ? { resetApproval: true } : {}), ...(await quoteBlockOf(c, req)) },
      actions,
    };
  }

  /** Confirm's check of the approval hashes: each one the node knows must be the approval the option asked for. */
  async function approvalsProblem(c: ReturnType<typeof chainOf>, req: OptionRequest, hashes: string[], reset: boolean): Promise<string | null> {
    const base = { owner: addressOf(req.account), token: token(req), spender: c.permit2 };
    for (const [i, hash] of hashes.entries()) {
      const expected = reset && i === 0 ? { ...base, reset: true as const } : { ...base, reset: false as const, min: req.amount };
      const problem = await approvalProblem(c.provider, hash, expected).catch(() => null);
      if (problem) return `result ${i + 1}: ${problem}`;
    }
    return null;
  }

  async function advance(req: OptionRequest, raw: unknown, knownTxId: string | null, ctx?: AdvanceContext): Promise<TransferState> {
    const c = chainOf(req);
    const parsed = parseEvmSubmission(raw);
    // Not one of this adapter's shapes: nothing can be said about the transfer, so the payment is not ended.
    if (!parsed.ok) throw new AppError('invalid_state', `cannot advance this payment: ${parsed.problem}`);
    const submission = parsed.value;
    if (submission.flow === 'transfer') return advanceDirectTransfer(c, req, knownTxId);
    // Only a transaction recorded before its broadcast can be found again after a crash.
    if (!ctx) throw new Error('the EVM relayer flows need an advance context to record their transaction');
    const check = { token: token(req), from: addressOf(req.account), to: addressOf(req.destination), minValue: req.amount };
    const key = keyFor(c, submission, ctx);
    const keyed = { ...c, relayer: key.wallet, queue: key.queue, funds: key.funds };
    const step = await c.pool.lease(key, () => advanceRelayerFlow(keyed, check, submission, knownTxId, ctx, { quotedAt: req.quotedAt, deadline: req.deadline }));
    // What the relayer paid, once its transaction is in a block: every end reports it (recorded once per transaction).
    if ((step.state === 'confirmed' || step.state === 'failed') && step.txId) {
      const spent = await c.feeSpent(step.txId).catch(() => undefined);
      if (spent) return { ...step, feeSpent: spent };
    }
    return step;
  }

  /**
   * The key a relayer step signs with: the sender of the recorded transaction (its replacements
   * and re-sends keep its nonce order), a permit's spender (only it may spend the permit), else the
   * least busy key in the pool.
   */
  function keyFor(c: ReturnType<typeof chainOf>, sub: { flow: 'eip3009' | 'permit2'; typedData: { message: Record<string, unknown> } }, ctx: AdvanceContext): RelayerKey {
    if (ctx.rawTx) {
      const key = c.pool.bySigned(ctx.rawTx);
      if (key) return key;
    }
    // A permit naming the spender contract may be sent by any key; one naming a key, only by it.
    if (sub.flow === 'permit2' && !namesSpenderContract(sub.typedData as Eip712TypedData)) return c.pool.byAddress(String(sub.typedData.message.spender)) ?? c.pool.keys[0]!;
    return c.pool.pick();
  }

  return {
    namespace: 'eip155',
    supportsChain: (caip2) => byChain.has(caip2),
    isValidAddress: (address) => /^0x[0-9a-fA-F]{40}$/.test(address) && isAddress(address.toLowerCase()),

    async prepareOption(req): Promise<PreparedOption | UnavailableOption> {
      const c = chainOf(req);
      const etaS = c.etaS ?? 5;
      // What disagrees with its configuration on chain is never offered (self-checks.ts).
      const verdict = await c.checks.of(req.asset);
      const flows = req.asset.flows.filter((f) => !verdict.refused.includes(f));
      if (!flows.length) return { unavailable: verdict.problems.join('; ') };
      const relayerFlow = flows.includes('eip3009') ? 'eip3009' : flows.includes('permit2') ? 'permit2' : null;
      if (relayerFlow) prefetchOfferReads(c.reads, { account: addressOf(req.account), fresh: !req.previous, ...(relayerFlow === 'permit2' ? { permit2Token: token(req) } : {}) });
      let refusal = relayerFlow ? await gaslessRefusal(c, c.reads, req, relayerFlow) : null;
      if (relayerFlow === 'eip3009' && !refusal) return { etaS, ...(await prepareEip3009(c, req)) };
      if (relayerFlow === 'permit2' && !refusal) {
        try {
          return { etaS, ...(await preparePermit2(c, req)) };
        } catch {
          // Whether the buyer must approve first is not known: asking for a needless approval
          // (or none that is needed) is not an offer to make on a guess.
          refusal = `the service could not read the account's Permit2 allowance on ${c.caip2}; ask again shortly`;
        }
      }
      // The buyer pays the gas of a direct transfer: offered whatever stopped the gasless flows.
      if (flows.includes('transfer')) return { etaS, ...prepareDirectTransfer(c, req) };
      return { unavailable: refusal ?? `no flow of ${req.asset.symbol} can be offered` };
    },

    expectedResults: (raw) => {
      const state = quoteStateOf(raw);
      return state.flow === 'permit2' ? 1 + (state.approve ? 1 : 0) + (state.resetApproval ? 1 : 0) : 1;
    },

    async verifyResults(req, raw, results): Promise<VerifyOutcome> {
      const parsed = parseEvmQuoteState(raw);
      if (!parsed.ok) return { ok: false, code: 'quote_expired', message: `this option cannot be used (${parsed.problem}); ask for options again` };
      const state = parsed.value;
      const last = results[results.length - 1] ?? '';
      if (state.flow === 'transfer') return checkDirectTransferResult(chainOf(req), req, last);
      const approvals = results.slice(0, -1);
      if (approvals.some((r) => !TX_HASH.test(r)))
        return { ok: false, code: 'invalid_results', message: 'each result before the signature (an approval) must be a transaction hash' };
      if (!SIGNATURE.test(last)) return { ok: false, code: 'invalid_results', message: 'the last result must be a signature (0x-prefixed hex)' };
      // The typed data was stored when the option was quoted, from the payment's amount,
      // destination and nonce: it is what the signature must cover exactly.
      const { typedData } = state;
      const block = state.quoteBlock === undefined ? {} : { quoteBlock: state.quoteBlock };
      if (state.flow === 'eip3009') {
        if (!verifyTransferWithAuthorization(typedData, last))
          return { ok: false, code: 'invalid_signature', message: 'the signature is not the buyer’s over this payment’s exact terms' };
        return { ok: true, submission: { flow: 'eip3009', typedData, signature: last, ...block } };
      }
      // A permit quoted before the witness existed would let the relayer choose the destination.
      if (typedData.primaryType !== 'PermitWitnessTransferFrom')
        return { ok: false, code: 'quote_expired', message: 'this option predates the destination-binding permit; ask for options again' };
      if (!verifyPermitWitnessTransferFrom(typedData, last, addressOf(req.account)))
        return { ok: false, code: 'invalid_signature', message: 'the signature is not the buyer’s over this payment’s exact terms' };
      const problem = await approvalsProblem(chainOf(req), req, approvals, state.resetApproval === true);
      if (problem) return { ok: false, code: 'invalid_results', message: problem };
      // The buyer has approved: an allowance shared from before must not ask the next payment for another approval.
      if (approvals.length) chainOf(req).reads.forgetAllowance(token(req), addressOf(req.account));
      return { ok: true, submission: { flow: 'permit2', typedData, signature: last, ...(approvals.length ? { approvals } : {}), ...block } };
    },

    advance,

    async followFinality(req, raw, txId, rawTx) {
      const c = chainOf(req);
      return followFinality(c.provider, c.finality ?? { kind: 'depth', blocks: c.confirmations }, () => advance(req, raw, txId, followOnlyContext(rawTx)));
    },

    async findLateFunds(req, raw, known, pass) {
      // Found by what identifies the option on chain: the direct transfer's tag, the EIP-3009
      // authorization's nonce, the spender contract's Paid event for a permit naming it. Permit2
      // leaves no event of its own: a permit naming a relayer key (only that key can use it) is not searched.
      const parsed = parseEvmQuoteState(raw);
      if (!parsed.ok) return { found: false };
      const c = chainOf(req);
      const finality = c.finality ?? ({ kind: 'depth', blocks: c.confirmations } as const);
      // The watcher's run reads the final head once for all its quotes of this chain.
      const finalHead = pass ? () => pass.once(`${c.caip2}/final-head`, () => lastFinalBlock(c.provider, finality)) : undefined;
      const chain = { provider: c.provider, confirmations: c.confirmations, finality, ...(finalHead ? { finalHead } : {}) };
      const state = parsed.value;
      if (state.flow === 'transfer') return findLateDirectTransfer(chain, req, known);
      if (state.flow === 'eip3009') return findLateAuthorization(chain, req, String(state.typedData.message.nonce), known);
      if (namesSpenderContract(state.typedData)) return findLateSpenderPermit(chain, req, spenderPaymentOf(state.typedData), known);
      return { found: false };
    },

    async paysTogether(options, txId) {
      // Only the buyer's own direct transfers: a relayer transaction is never a buyer's batch.
      if (!options.length || !options.every((o) => parseEvmQuoteState(o.state).ok && (o.state as { flow?: unknown }).flow === 'transfer')) return false;
      const c = chainOf(options[0]!.req);
      if (options.some((o) => chainOf(o.req) !== c)) return false;
      const finality = c.finality ?? ({ kind: 'depth', blocks: c.confirmations } as const);
      return paysTogether(
        { provider: c.provider, confirmations: c.confirmations, finality },
        options.map((o) => o.req),
        txId,
      );
    },

    // Every key of every chain's pool. A key refused for lack of funds reports what it needed as its minimum until a balance covers it.
    accounts: async () =>
      (
        await Promise.all(
          [...byChain.values()].map((c) =>
            Promise.all(
              c.pool.keys.map(async (k) => {
                const after = k.funds.refusals();
                const balance = await c.provider.getBalance(k.wallet.address).catch(() => null);
                if (balance !== null) c.pool.observe(k, balance, after);
                const short = k.funds.shortOf();
                return {
                  role: 'relayer' as const,
                  chain: c.caip2,
                  account: k.wallet.address,
                  balance,
                  minimum: short !== null && short > c.minRelayerBalance ? short : c.minRelayerBalance,
                };
              }),
            ),
          ),
        )
      ).flat(),

    health: (o) => Promise.all(chains.map((c) => checkNode(c.caip2, true, () => servedChain(c.provider), o?.timeoutMs))),

    selfCheck: async (assets, o) => (await Promise.all([...byChain.values()].map((c) => selfCheckChain(c, assets, o?.timeoutMs ?? 5_000)))).flat(),
  };
}
