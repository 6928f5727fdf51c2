import { JsonRpcProvider, Wallet, id, isAddress, zeroPadValue, type Provider } from 'ethers';
import { checksummed } from './address.ts';
import type { ChainPort, OptionRequest, QuoteState, Submission, TransferState, VerifyOutcome, WireAction } from '../../../server/ports/chains.ts';
import { buildTransferWithAuthorization, readAuthorizationState, readTokenDomain, submitTransferWithAuthorization, verifyTransferWithAuthorization, type TokenDomain } from './eip3009.ts';
import { buildApproveTransaction, buildPermitTransferFrom, isPermit2NonceUsed, readErc20Allowance, submitPermitTransferFrom, verifyPermitTransferFrom } from './permit2.ts';
import { advanceDirectTransfer, checkDirectTransferResult, prepareDirectTransfer } from './direct-transfer.ts';
import { classifySubmitError, getConfirmations } from './receipts.ts';
import { createSerialQueue, type SerialQueue } from './relayer.ts';
import { deriveNonce } from './nonce.ts';
import { sendTransactionParams, signTypedDataV4Params } from './wallet-rpc.ts';
import type { Eip712TypedData } from './typed-data.ts';
import type { Clock } from '../../../server/ports/clock.ts';

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
  /** The service's time (default the system's): when a direct transfer's hash is given up on. */
  clock?: Clock;
}

const SIGNATURE = /^0x[0-9a-fA-F]{130,}$/;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const addressOf = (caip10: string) => checksummed(caip10.split(':')[2]!);

/**
 * The EVM adapter of the chain port. Flows, best first: EIP-3009 (one signature, relayer
 * submits), Permit2 (signature, preceded by an approval when the allowance is short), direct
 * ERC-20 transfer (the wallet broadcasts, the service verifies). Nonces bind each signature to
 * its payment and option; a payment is never matched by amount.
 */
export function createEvmChainAdapter(chains: EvmChainConfig[]): ChainPort {
  const byChain = new Map(chains.map((c) => [c.caip2, { ...c, queue: createSerialQueue() as SerialQueue, domains: new Map<string, TokenDomain>() }]));
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

  // The typed data is rebuilt-equivalent: it was stored when the option was quoted, from the
  // payment's amount, destination and nonce, and is what the signature must cover exactly.
  const typedDataFor = (state: QuoteState) => state.typedData as Eip712TypedData;

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
        const typedData = buildTransferWithAuthorization({ token: token(req), chainId: BigInt(c.caip2.split(':')[1]!), domain: await domainOf(c, token(req)), from, to, value: req.amount, validAfter: 0n, validBefore: deadline, nonce: nonce.eip3009 });
        return { etaS, state: { flow: 'eip3009', typedData }, actions: [{ type: 'walletRpc', data: { chain_id: c.caip2, method: 'eth_signTypedData_v4', params: signTypedDataV4Params(from, typedData) } }] };
      }
      if (req.asset.flows.includes('permit2')) {
        const typedData = buildPermitTransferFrom({ permit2: c.permit2, chainId: BigInt(c.caip2.split(':')[1]!), token: token(req), amount: req.amount, spender: c.relayer.address, nonce: nonce.permit2, deadline });
        const allowance = await readErc20Allowance(c.provider, token(req), from, c.permit2);
        const actions: WireAction[] = [];
        // The interface's two-action case: approve Permit2 first when the allowance is short.
        if (allowance < req.amount) {
          const approve = buildApproveTransaction({ token: token(req), spender: c.permit2, amount: 2n ** 256n - 1n, from });
          actions.push({ type: 'walletRpc', data: { chain_id: c.caip2, method: 'eth_sendTransaction', params: sendTransactionParams(approve) } });
        }
        actions.push({ type: 'walletRpc', data: { chain_id: c.caip2, method: 'eth_signTypedData_v4', params: signTypedDataV4Params(from, typedData) } });
        return { etaS, state: { flow: 'permit2', typedData, approve: actions.length === 2 }, actions };
      }
      return { etaS, ...prepareDirectTransfer(c, req) };
    },

    expectedResults: (state) => (state.flow === 'permit2' && state.approve ? 2 : 1),

    async verifyResults(req, state, results): Promise<VerifyOutcome> {
      const last = results[results.length - 1] ?? '';
      if (state.flow === 'transfer') return checkDirectTransferResult(chainOf(req), req, last);
      if (state.approve && !TX_HASH.test(results[0] ?? '')) return { ok: false, code: 'invalid_results', message: 'the first result (the approval) must be a transaction hash' };
      if (!SIGNATURE.test(last)) return { ok: false, code: 'invalid_results', message: 'the last result must be a signature (0x-prefixed hex)' };
      const typedData = typedDataFor(state);
      const valid = state.flow === 'eip3009' ? verifyTransferWithAuthorization(typedData, last) : verifyPermitTransferFrom(typedData, last, addressOf(req.account));
      if (!valid) return { ok: false, code: 'invalid_signature', message: 'the signature is not the buyer’s over this payment’s exact terms' };
      return { ok: true, submission: { flow: state.flow, typedData, signature: last } };
    },

    async advance(req, submission: Submission, knownTxId): Promise<TransferState> {
      const c = chainOf(req);
      if (!knownTxId) {
        if (submission.flow === 'transfer') return advanceDirectTransfer(c, req, null);
        // A submission whose hash was never recorded (a crash after broadcast) must be found,
        // not sent again: a second send would revert and read as a failure though funds moved.
        const earlier = await findEarlierSubmission(c, req, submission);
        if (earlier === 'unknown') return { state: 'pending', reason: 'could not read the nonce state' };
        if (earlier) return { state: 'submitted', txId: earlier };
        try {
          const typedData = submission.typedData as Eip712TypedData;
          const signature = String(submission.signature);
          const txId = await c.queue(() =>
            submission.flow === 'eip3009'
              ? submitTransferWithAuthorization(c.relayer, typedData, signature)
              : submitPermitTransferFrom(c.relayer, typedData, signature, { owner: addressOf(req.account), to: addressOf(req.destination), requestedAmount: req.amount }),
          );
          return { state: 'submitted', txId: txId.toLowerCase() };
        } catch (err) {
          // Rejected during estimation: nothing was broadcast (e.g. the buyer's balance is short).
          if (classifySubmitError(err) === 'rejected') return { state: 'failed', reason: (err as Error).message.slice(0, 200) };
          return { state: 'pending', reason: 'submission outcome unknown' };
        }
      }
      if (submission.flow === 'transfer') return advanceDirectTransfer(c, req, knownTxId);
      const conf = await getConfirmations(c.provider, knownTxId);
      if (conf.status === 'mined' && !conf.success) return { state: 'failed', reason: 'the transfer reverted on chain', txId: knownTxId };
      if (conf.status === 'mined' && conf.confirmations >= c.confirmations) return { state: 'confirmed', txId: knownTxId };
      return { state: 'pending', txId: knownTxId };
    },
  };
}

const AUTHORIZATION_USED = id('AuthorizationUsed(address,bytes32)');
const TRANSFER = id('Transfer(address,address,uint256)');

/** The hash of an earlier submission of this signature, null when none, 'unknown' on RPC trouble. */
async function findEarlierSubmission(c: EvmChainConfig, req: OptionRequest, submission: Submission): Promise<string | null | 'unknown'> {
  const tokenAddress = checksummed(req.asset.parsed.assetReference);
  const owner = addressOf(req.account);
  try {
    const nonce = deriveNonce(req.paymentId, req.optionId);
    if (submission.flow === 'eip3009') {
      if (!(await readAuthorizationState(c.provider, tokenAddress, owner, nonce.eip3009))) return null;
      const logs = await c.provider.getLogs({ address: tokenAddress, topics: [AUTHORIZATION_USED, zeroPadValue(owner, 32), nonce.eip3009], fromBlock: 0 });
      return logs[0]?.transactionHash.toLowerCase() ?? 'unknown';
    }
    if (!(await isPermit2NonceUsed(c.provider, c.permit2, owner, nonce.permit2))) return null;
    const head = await c.provider.getBlockNumber();
    const logs = await c.provider.getLogs({ address: tokenAddress, topics: [TRANSFER, zeroPadValue(owner, 32), zeroPadValue(addressOf(req.destination), 32)], fromBlock: Math.max(0, head - 50_000) });
    const tx = logs.reverse().find((l) => l.transactionHash)?.transactionHash;
    return tx?.toLowerCase() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Production chains from configuration: `EVM_RPC_URLS` JSON of CAIP-2 → URL, one relayer key. */
export function evmChainsFromConfig(rpcUrls: Record<string, string>, relayerKey: string, permit2: string, confirmations: number): EvmChainConfig[] {
  return Object.entries(rpcUrls).map(([caip2, url]) => {
    const provider = new JsonRpcProvider(url, Number(caip2.split(':')[1]), { staticNetwork: true, cacheTimeout: -1 });
    return { caip2, provider, relayer: new Wallet(relayerKey, provider), permit2, confirmations };
  });
}

