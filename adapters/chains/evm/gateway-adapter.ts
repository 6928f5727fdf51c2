import { JsonRpcApiProvider, JsonRpcProvider, Wallet, isAddress, type Provider } from 'ethers';
import { checksummed } from './address.ts';
import { checkNode, type ChainPort, type EvmQuoteState, type OptionRequest, type TransferState, type VerifyOutcome, type WireAction } from '../../../server/ports/chains.ts';
import { AppError } from '../../../server/errors.ts';
import { parseEvmQuoteState, parseEvmSubmission } from './state.ts';
import { createHeadCache } from './scan.ts';
import { buildTransferWithAuthorization, readTokenDomain, verifyTransferWithAuthorization, type TokenDomain } from './eip3009.ts';
import { buildApproveTransaction, readErc20Allowance } from './permit2.ts';
import { buildPermitWitnessTransferFrom, verifyPermitWitnessTransferFrom } from './permit2-witness.ts';
import { advanceRelayerFlow } from './relayer-flow.ts';
import { advanceDirectTransfer, checkDirectTransferResult, prepareDirectTransfer } from './direct-transfer.ts';
import { relayerQueue } from './relayer.ts';
import { deriveNonce, derivePaymentReference } from './nonce.ts';
import { sendTransactionParams, signTypedDataV4Params } from './wallet-rpc.ts';
import type { Clock } from '../../../server/ports/clock.ts';
import type { ExclusiveSections } from '../../../server/ports/exclusive-sections.ts';

/** One EVM chain the service pays on. */
export interface EvmChainConfig {
  /** CAIP-2, e.g. `eip155:8453`. */
  caip2: string;
  provider: Provider;
  /** Pays gas for the gasless flows and is the Permit2 spender. */
  relayer: Wallet;
  permit2: string;
  confirmations: number;
  etaS?: number;
  /** The service's time (default the system's): when a direct transfer's hash is given up on, when a relayer transaction is replaced. */
  clock?: Clock;
  /** A relayer transaction the node holds unmined this long is replaced with higher fees (default 45 s). */
  replaceAfterMs?: number;
  /** The highest maxFeePerGas the relayer signs, wei (default 500 gwei). */
  maxFeePerGas?: bigint;
  /** Below this native balance (wei) the relayer shows as low (default 0.01 ETH). */
  minRelayerBalance?: bigint;
}

/** The default of `minRelayerBalance`: 0.01 ETH, a few hundred relayed transfers on an L2. */
export const DEFAULT_MIN_RELAYER_BALANCE = 10n ** 16n;

/** The tuning of every configured chain: `EVM_REPLACE_AFTER_S`, `EVM_MAX_FEE_GWEI`, `EVM_RELAYER_MIN_BALANCE_WEI`. */
export type EvmRelayerTuning = Pick<EvmChainConfig, 'replaceAfterMs' | 'maxFeePerGas' | 'minRelayerBalance'>;

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
export function createEvmChainAdapter(chains: EvmChainConfig[], opts: { sections?: ExclusiveSections } = {}): ChainPort {
  // Every process signing with one relayer key must share `sections` (PostgreSQL); without them the
  // relayer's nonces are ordered within this process only.
  const byChain = new Map(
    chains.map((c) => [
      c.caip2,
      { ...c, queue: relayerQueue(opts.sections, c.caip2, c.relayer.address), domains: new Map<string, TokenDomain>(), head: createHeadCache(c.provider) },
    ]),
  );
  const chainOf = (req: OptionRequest) => {
    const c = byChain.get(`${req.asset.parsed.chain.namespace}:${req.asset.parsed.chain.reference}`);
    if (!c) throw new Error(`no EVM chain configured for ${req.asset.id}`);
    return c;
  };
  const token = (req: OptionRequest) => checksummed(req.asset.parsed.assetReference);

  async function domainOf(c: ReturnType<typeof chainOf>, tokenAddress: string): Promise<TokenDomain> {
    let d = c.domains.get(tokenAddress);
    if (!d) c.domains.set(tokenAddress, (d = await readTokenDomain(c.provider, tokenAddress)));
    return d;
  }

  /**
   * Where a search for a transaction using this quote's signature starts: the head now for a new
   * quote (a head read a few seconds ago is earlier, so only widens the search). A quote offered
   * again keeps what it was first given, even nothing (quoted before blocks were kept): its block
   * is then found by the quote's time, which is the first quote's.
   */
  async function quoteBlockOf(c: ReturnType<typeof chainOf>, req: OptionRequest): Promise<{ quoteBlock?: number }> {
    if (!req.previous) return { quoteBlock: await c.head() };
    return 'quoteBlock' in req.previous && req.previous.quoteBlock !== undefined ? { quoteBlock: req.previous.quoteBlock } : {};
  }

  return {
    namespace: 'eip155',
    supportsChain: (caip2) => byChain.has(caip2),
    isValidAddress: (address) => /^0x[0-9a-fA-F]{40}$/.test(address) && isAddress(address.toLowerCase()),

    async prepareOption(req) {
      const c = chainOf(req);
      const from = addressOf(req.account);
      const to = addressOf(req.destination);
      const nonce = deriveNonce(req.paymentId, req.optionId);
      const deadline = BigInt(Math.floor(req.deadline.getTime() / 1000));
      const etaS = c.etaS ?? 5;
      if (req.asset.flows.includes('eip3009')) {
        const typedData = buildTransferWithAuthorization({
          token: token(req),
          chainId: BigInt(c.caip2.split(':')[1]!),
          domain: await domainOf(c, token(req)),
          from,
          to,
          value: req.amount,
          validAfter: 0n,
          validBefore: deadline,
          nonce: nonce.eip3009,
        });
        return {
          etaS,
          state: { flow: 'eip3009', typedData, ...(await quoteBlockOf(c, req)) },
          actions: [{ type: 'walletRpc', data: { chain_id: c.caip2, method: 'eth_signTypedData_v4', params: signTypedDataV4Params(from, typedData) } }],
        };
      }
      if (req.asset.flows.includes('permit2')) {
        // The witness names the payment and the destination: the buyer signs where the money goes.
        const typedData = buildPermitWitnessTransferFrom({
          permit2: c.permit2,
          chainId: BigInt(c.caip2.split(':')[1]!),
          token: token(req),
          amount: req.amount,
          spender: c.relayer.address,
          nonce: nonce.permit2,
          deadline,
          payment: derivePaymentReference(req.paymentId),
          destination: to,
        });
        const allowance = await readErc20Allowance(c.provider, token(req), from, c.permit2);
        const actions: WireAction[] = [];
        // The interface's two-action case: approve Permit2 first when the allowance is short.
        if (allowance < req.amount) {
          const approve = buildApproveTransaction({ token: token(req), spender: c.permit2, amount: 2n ** 256n - 1n, from });
          actions.push({ type: 'walletRpc', data: { chain_id: c.caip2, method: 'eth_sendTransaction', params: sendTransactionParams(approve) } });
        }
        actions.push({ type: 'walletRpc', data: { chain_id: c.caip2, method: 'eth_signTypedData_v4', params: signTypedDataV4Params(from, typedData) } });
        return { etaS, state: { flow: 'permit2', typedData, approve: actions.length === 2, ...(await quoteBlockOf(c, req)) }, actions };
      }
      return { etaS, ...prepareDirectTransfer(c, req) };
    },

    expectedResults: (raw) => {
      const state = quoteStateOf(raw);
      return state.flow === 'permit2' && state.approve ? 2 : 1;
    },

    async verifyResults(req, raw, results): Promise<VerifyOutcome> {
      const parsed = parseEvmQuoteState(raw);
      if (!parsed.ok) return { ok: false, code: 'quote_expired', message: `this option cannot be used (${parsed.problem}); ask for options again` };
      const state = parsed.value;
      const last = results[results.length - 1] ?? '';
      if (state.flow === 'transfer') return checkDirectTransferResult(chainOf(req), req, last);
      if (state.flow === 'permit2' && state.approve && !TX_HASH.test(results[0] ?? ''))
        return { ok: false, code: 'invalid_results', message: 'the first result (the approval) must be a transaction hash' };
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
      return { ok: true, submission: { flow: 'permit2', typedData, signature: last, ...block } };
    },

    async advance(req, raw, knownTxId, ctx): Promise<TransferState> {
      const c = chainOf(req);
      const parsed = parseEvmSubmission(raw);
      // Not one of this adapter's shapes: nothing can be said about the transfer, so the payment is not ended.
      if (!parsed.ok) throw new AppError('invalid_state', `cannot advance this payment: ${parsed.problem}`);
      const submission = parsed.value;
      if (submission.flow === 'transfer') return advanceDirectTransfer(c, req, knownTxId);
      // Only a transaction recorded before its broadcast can be found again after a crash.
      if (!ctx) throw new Error('the EVM relayer flows need an advance context to record their transaction');
      const check = { token: token(req), from: addressOf(req.account), to: addressOf(req.destination), minValue: req.amount };
      return advanceRelayerFlow(c, check, submission, knownTxId, ctx, { quotedAt: req.quotedAt, deadline: req.deadline });
    },

    accounts: () =>
      Promise.all(
        chains.map(async (c) => ({
          role: 'relayer' as const,
          chain: c.caip2,
          account: c.relayer.address,
          balance: await c.provider.getBalance(c.relayer.address).catch(() => null),
          minimum: c.minRelayerBalance ?? DEFAULT_MIN_RELAYER_BALANCE,
        })),
      ),

    health: (o) => Promise.all(chains.map((c) => checkNode(c.caip2, true, () => servedChain(c.provider), o?.timeoutMs))),
  };
}

/**
 * Asks the node itself (`eth_chainId`): the providers are built with a static network, so
 * `getNetwork()` would answer the configured id without asking, and a URL pointing at another
 * chain would pass.
 */
const servedChain = async (provider: Provider): Promise<string> =>
  `eip155:${provider instanceof JsonRpcApiProvider ? BigInt((await provider.send('eth_chainId', [])) as string) : (await provider.getNetwork()).chainId}`;

/** Production chains from configuration: `EVM_RPC_URLS` JSON of CAIP-2 → URL, one relayer key. */
export function evmChainsFromConfig(rpcUrls: Record<string, string>, relayerKey: string, permit2: string, confirmations: number, tuning: EvmRelayerTuning = {}): EvmChainConfig[] {
  return Object.entries(rpcUrls).map(([caip2, url]) => {
    const provider = new JsonRpcProvider(url, Number(caip2.split(':')[1]), { staticNetwork: true, cacheTimeout: -1 });
    return { caip2, provider, relayer: new Wallet(relayerKey, provider), permit2, confirmations, ...tuning };
  });
}
