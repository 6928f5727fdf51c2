// Long because: the EVM harness is one fixture on two transports (the chain, its dev controls, the faults, a real wallet and its tampering), and its parts share that chain.
// The chain port conformance harness for the EVM adapter, on either transport: the in-process
// sandbox (EDR, what embedded mode runs), or JSON-RPC over HTTP through the fault proxy to the
// standalone sandbox chains this test worker shares (the production wiring, from configuration).
// Either way the adapter's node answers through the fault engine, the wallet is a real one with
// its own node, and the chain is steered by its dev methods.
import { BrowserProvider, Contract, JsonRpcProvider, Wallet, keccak256, parseEther, toQuantity, type HDNodeWallet, type Provider } from 'ethers';
import { createAssetRegistry, type AssetInfo } from '../../../server/domain/assets.ts';
import type { Submission, WireAction } from '../../../server/ports/chains.ts';
import { evmDev, inProcessFaults, httpUpstream, sharedSandboxChains, startRpcFaultProxy, type FaultControl, type UpstreamCall } from '../../../tools/chain-faults/index.ts';
import { createEvmSandbox } from '../../sandbox/evm/index.ts';
import { submitTransferWithAuthorization } from '../evm/eip3009.ts';
import { createEvmChainAdapter, type EvmChainConfig } from '../evm/gateway-adapter.ts';
import { evmChainsFromConfig } from '../evm/config.ts';
import { namesSpenderContract, spenderPayCall } from '../evm/permit2-spender.ts';
import { PERMIT_WITNESS_TRANSFER_FROM_TYPES, permitWitnessTransferRequest } from '../evm/permit2-witness.ts';
import { buildTransferTransaction, type EthSendTransactionParams } from '../evm/transfer.ts';
import { recoverTypedDataSigner, toEthersTypedData, type Eip712TypedData } from '../evm/typed-data.ts';
import type { DeclaredFlow } from './chain-port-conformance.ts';
import { nodeFaultHooks, type ChainHarness, type ChainTransport, type ConformanceWallet, type FlowFixture, type Tamper } from './harness.ts';

type Flow = 'eip3009' | 'permit2' | 'transfer';

export const EVM_DECLARED: DeclaredFlow[] = [
  { flow: 'eip3009', submittable: true, searchesLogs: true },
  { flow: 'permit2', submittable: true, searchesLogs: true },
  { flow: 'transfer', submittable: false, walletBroadcasts: true },
];

const PUBLIC_RPC_LOG_RANGE = 2_000;
/** How far past a quote's deadline the clock moves at expiry: beyond the direct-transfer grace (5 min). */
const EXPIRY_STEP_MS = 6 * 60_000;
const CHAIN_ID = 31337;
const ERC20 = ['function balanceOf(address) view returns (uint256)'];

/** The chain under the harness, whichever transport: its node's JSON-RPC (dev methods allowed), a provider straight to it, funding. */
interface EvmChain {
  node: UpstreamCall;
  direct: Provider;
  usdc: string;
  permit2: string;
  relayerKey: string;
  /** Adds native coin (token null) or mints tokens. */
  fund(address: string, token: string | null, value: bigint): Promise<void>;
  /** The adapter's chain configs, over `nodes` faulty nodes. */
  adapterChains(clock: { now(): number }): EvmChainConfig[];
  faults: FaultControl;
  close(): Promise<void>;
}

async function inProcessChain(): Promise<EvmChain> {
  const sandbox = await createEvmSandbox();
  const node: UpstreamCall = async (method, params) => {
    const answer = (await sandbox.handleJsonRpc({ jsonrpc: '2.0', id: 1, method, params }, { allowDevMethods: true })) as {
      result?: unknown;
      error?: { code: number; message: string };
    };
    return answer.error ? { error: answer.error } : { result: answer.result ?? null };
  };
  const faults = inProcessFaults({ evm: node });
  const provider = new BrowserProvider(faults.evm(0), CHAIN_ID, { staticNetwork: true, pollingInterval: 100, cacheTimeout: -1 });
  return {
    node,
    direct: sandbox.ethersProvider,
    usdc: sandbox.usdcAddress,
    permit2: sandbox.permit2Address,
    relayerKey: sandbox.relayer.privateKey,
    fund: (address, token, value) => sandbox.fund(address, token, value),
    adapterChains: (clock) => [
      { caip2: sandbox.caip2, provider, relayer: new Wallet(sandbox.relayer.privateKey, provider), permit2: sandbox.permit2Address, confirmations: 1, clock },
    ],
    faults: faults.control,
    close: async () => {
      provider.destroy();
      await sandbox.close();
    },
  };
}

async function jsonRpcChain(): Promise<EvmChain> {
  const chains = await sharedSandboxChains();
  const proxy = await startRpcFaultProxy({ evmUpstream: chains.evmUrl, nodes: 1 });
  const direct = new JsonRpcProvider(chains.evmUrl, CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
  const described = (await (await fetch(`${chains.baseUrl}/sandbox`)).json()) as { assets: Array<{ caip19: string; symbol: string }> };
  const usdc = described.assets
    .find((a) => a.symbol === 'USDC' && a.caip19.startsWith('eip155:'))!
    .caip19.split(':')
    .at(-1)!;
  const node = httpUpstream(chains.evmUrl);
  const dev = evmDev(node);
  // A file before this one on the worker's chains may have left mining off: blocks per transaction again.
  await dev.setIntervalMining(0);
  await dev.setAutomine(true);
  const configs: EvmChainConfig[] = evmChainsFromConfig({ [`eip155:${CHAIN_ID}`]: proxy.evmUrls[0]! }, chains.env.EVM_RELAYER_KEY!, chains.env.PERMIT2_ADDRESS!, 1);
  return {
    node,
    direct,
    usdc,
    permit2: chains.env.PERMIT2_ADDRESS!,
    relayerKey: chains.env.EVM_RELAYER_KEY!,
    async fund(address, token, value) {
      if (token === null) return dev.setBalance(address, (await direct.getBalance(address)) + value);
      const res = await fetch(`${chains.baseUrl}/sandbox/faucet`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account: `eip155:${CHAIN_ID}:${address}`, asset: `eip155:${CHAIN_ID}/erc20:${token}`, value: value.toString() }),
      });
      if (!res.ok) throw new Error(`faucet answered ${res.status}: ${await res.text()}`);
    },
    // Batching on (as production runs by default), so every scenario also runs through the batcher; one key (the scenarios drain it).
    adapterChains: (clock) => configs.map((c) => ({ ...c, clock, batchMax: 4, batchWindowMs: 20 })),
    faults: proxy,
    close: async () => {
      direct.destroy();
      for (const c of configs) (c.provider as JsonRpcProvider).destroy();
      await proxy.close();
    },
  };
}

/** Opens the EVM adapter's conformance harness on `transport`. */
export async function openEvmHarness(transport: ChainTransport): Promise<ChainHarness> {
  const chain = transport === 'in-process' ? await inProcessChain() : await jsonRpcChain();
  const dev = evmDev(chain.node);
  const rpc = (method: string, params: unknown[] = []) => dev.call(method, params);
  const caip2 = `eip155:${CHAIN_ID}`;
  // The service's time follows the chain's (mining moves the chain's clock a second a block).
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;
  const followChain = async () => {
    const block = await chain.direct.getBlock('latest');
    offsetMs = Math.max(offsetMs, block!.timestamp * 1000 - Date.now());
  };
  await followChain();
  // Final three blocks deep, authorizations valid ten minutes past the quote: a reorg after confirm can be healed.
  const configs = chain.adapterChains({ now }).map((c): EvmChainConfig => ({ ...c, finality: { kind: 'depth', blocks: 3 }, healWindowMs: 10 * 60_000 }));
  const port = createEvmChainAdapter(configs);
  const provider = configs[0]!.provider;
  // Another process holding the relayer key (it submits out of band, unrecorded), on its own node.
  const relayer = new Wallet(chain.relayerKey, chain.direct);
  // Port 9 (discard): nothing answers JSON-RPC there.
  const down = new JsonRpcProvider('http://127.0.0.1:9', CHAIN_ID, { staticNetwork: true });
  const assetFor = (flow: Flow): AssetInfo => {
    const id = `${caip2}/erc20:${chain.usdc}`;
    return createAssetRegistry([{ id, symbol: 'USDC', name: 'USD Coin', decimals: 6, flows: [flow], networkName: 'Sandbox' }]).get(id)!;
  };
  const fixture = (flow: Flow): FlowFixture => ({
    flow,
    asset: assetFor(flow),
    walletBroadcasts: flow === 'transfer',
    ...(flow === 'eip3009' ? { submitElsewhere: (sub: Submission) => frontRunAuthorization(chain, sub) } : {}),
    // Permit2 lets only the spender submit: another process holding the relayer key, unrecorded.
    ...(flow === 'permit2' ? { submitElsewhere: (sub: Submission) => submitPermitOutOfBand(relayer, sub) } : {}),
  });

  return {
    port,
    namespace: 'eip155',
    caip2,
    otherChain: 'eip155:1',
    broken: {
      misnamed: createEvmChainAdapter([{ caip2: 'eip155:1', provider, relayer: new Wallet(chain.relayerKey, provider), permit2: chain.permit2, confirmations: 1 }]),
      unreachable: createEvmChainAdapter([{ caip2, provider: down, relayer: new Wallet(chain.relayerKey, down), permit2: chain.permit2, confirmations: 1 }]),
    },
    // Any case is accepted (wallets send lowercase as often as EIP-55); the checksum is not asked for.
    addresses: {
      valid: [Wallet.createRandom().address, Wallet.createRandom().address.toLowerCase()],
      invalid: ['nope', '0x1234', `0x${'g'.repeat(40)}`],
    },
    flows: (['eip3009', 'permit2', 'transfer'] as const).map(fixture),
    now,
    async newBuyer(_flow, amount) {
      const buyer = Wallet.createRandom(chain.direct);
      await chain.fund(buyer.address, chain.usdc, amount);
      await chain.fund(buyer.address, null, parseEther('0.1'));
      return evmWallet(chain, buyer, amount);
    },
    newDestination: () => `${caip2}:${Wallet.createRandom().address}`,
    balance: async (destination) => (await new Contract(chain.usdc, ERC20, chain.direct).getFunction('balanceOf')(destination.split(':')[2]!)) as bigint,
    async mine(blocks) {
      await rpc('hardhat_mine', [toQuantity(blocks)]);
      await followChain();
    },
    holdBroadcasts: async () => {
      await rpc('evm_setAutomine', [false]);
    },
    async passTime(ms) {
      offsetMs += ms;
      await rpc('evm_increaseTime', [Math.ceil(ms / 1000)]);
    },
    setServiceBalance: async (account, value) => {
      await rpc('hardhat_setBalance', [account, toQuantity(value)]);
    },
    async releaseBroadcasts() {
      await rpc('evm_setAutomine', [true]);
      await rpc('evm_mine');
      await followChain();
    },
    async expire(deadline) {
      const head = await chain.direct.getBlock('latest');
      await rpc('evm_setNextBlockTimestamp', [toQuantity(Math.max(head!.timestamp + 1, Math.ceil(deadline.getTime() / 1000) + 1))]);
      await rpc('evm_mine');
      await followChain();
      offsetMs = Math.max(offsetMs, deadline.getTime() + EXPIRY_STEP_MS - Date.now());
    },
    // The widest eth_getLogs range public RPCs accept (Alchemy's 2,000 blocks), stated here, not read from the adapter.
    scans: {
      ranges: () =>
        chain.faults.calls({ chain: 'evm', method: 'eth_getLogs' }).map((c) => {
          const f = c.params[0] as { fromBlock: string; toBlock: string };
          return { fromBlock: Number(f.fromBlock), toBlock: Number(f.toBlock) };
        }),
      bound: PUBLIC_RPC_LOG_RANGE,
      head: () => chain.direct.getBlockNumber(),
    },
    faults: {
      ...nodeFaultHooks(chain.faults, 'evm', transport),
      mark: () => dev.snapshot(),
      async reorg(mark, options) {
        const result = await dev.reorg(mark, options);
        await followChain();
        return result;
      },
      spikeBaseFee: (wei) => dev.setNextBaseFee(wei),
    },
    close: async () => {
      down.destroy();
      await chain.close();
    },
  };
}

/** A wallet with real keys: signs typed data, and signs and broadcasts transactions itself (on its own node). */
function evmWallet(chain: EvmChain, buyer: HDNodeWallet, amount: bigint): ConformanceWallet {
  const account = `eip155:${CHAIN_ID}:${buyer.address}`;
  return {
    account,
    async act(actions: WireAction[], options = {}) {
      const results: string[] = [];
      for (const action of actions) {
        if (action.type !== 'walletRpc') throw new Error('the wallet runs walletRpc actions only');
        const { method, params } = action.data;
        if (method === 'eth_signTypedData_v4') results.push(await signTyped(chain, buyer, JSON.parse(String(params[1])) as Eip712TypedData, options.tamper));
        else if (method === 'eth_sendTransaction') {
          const tx = params[0] as EthSendTransactionParams;
          // Only the payment itself is tampered with or withheld; an approval is sent as asked.
          const isPayment = !tx.data.startsWith('0x095ea7b3');
          results.push(
            await send(
              chain,
              buyer,
              isPayment ? tamperTransfer(tx, options.tamper, amount) : tx,
              isPayment && options.tamper === 'wrong-signer',
              isPayment && options.withhold === true,
            ),
          );
        } else throw new Error(`unexpected wallet method ${method}`);
      }
      return results;
    },
  };
}

async function signTyped(chain: EvmChain, buyer: HDNodeWallet, typedData: Eip712TypedData, tamper?: Tamper): Promise<string> {
  const other = Wallet.createRandom().address;
  const m = structuredClone(typedData.message);
  if (tamper === 'amount') {
    if (typedData.primaryType === 'TransferWithAuthorization') m.value = toQuantity(BigInt(String(m.value)) - 1n);
    else (m.permitted as Record<string, unknown>).amount = toQuantity(BigInt(String((m.permitted as Record<string, unknown>).amount)) - 1n);
  }
  if (tamper === 'destination') {
    if (typedData.primaryType === 'TransferWithAuthorization') m.to = other;
    else (m.witness as Record<string, unknown>).destination = other;
  }
  const signer = tamper === 'wrong-signer' ? Wallet.createRandom(chain.direct) : buyer;
  const { domain, types } = toEthersTypedData(typedData);
  return signer.signTypedData(domain, types, m);
}

/** The transfer with other terms, keeping the option's tag (the 32 bytes after the arguments). */
function tamperTransfer(tx: EthSendTransactionParams, tamper: Tamper | undefined, amount: bigint): EthSendTransactionParams {
  if (tamper !== 'amount' && tamper !== 'destination') return tx;
  const reference = `0x${tx.data.slice(-64)}`;
  const to = tamper === 'destination' ? Wallet.createRandom().address : `0x${tx.data.slice(34, 74)}`;
  return buildTransferTransaction({ token: tx.to, from: tx.from!, to, value: tamper === 'amount' ? amount - 1n : amount, reference });
}

/** Signs (as the buyer, or as another funded account) and broadcasts on the wallet's node unless withheld; the tx hash. */
async function send(chain: EvmChain, buyer: HDNodeWallet, tx: EthSendTransactionParams, otherSender: boolean, withhold: boolean): Promise<string> {
  let sender = buyer;
  if (otherSender) {
    sender = Wallet.createRandom(chain.direct);
    await chain.fund(sender.address, null, parseEther('0.1'));
    await chain.fund(sender.address, tx.to, 10n ** 12n);
  }
  const raw = await sender.signTransaction(await sender.populateTransaction({ to: tx.to, data: tx.data, value: 0n, gasLimit: 200_000n }));
  if (withhold) return keccak256(raw);
  return evmDev(chain.node).sendRaw(raw);
}

/** Another account submits the buyer's EIP-3009 authorization first (it pays the destination all the same). */
async function frontRunAuthorization(chain: EvmChain, sub: Submission): Promise<string> {
  if (sub.flow !== 'eip3009') throw new Error(`not an EIP-3009 submission: ${sub.flow}`);
  const frontRunner = Wallet.createRandom(chain.direct);
  await chain.fund(frontRunner.address, null, parseEther('0.1'));
  const hash = await submitTransferWithAuthorization(frontRunner, sub.typedData, sub.signature);
  await chain.direct.waitForTransaction(hash);
  return hash;
}

/** The relayer key submits the permit outside the job (another process): nothing is recorded. Through the spender contract when the permit names it. */
async function submitPermitOutOfBand(relayer: Wallet, sub: Submission): Promise<string> {
  if (sub.flow !== 'permit2') throw new Error(`not a Permit2 submission: ${sub.flow}`);
  const owner = recoverTypedDataSigner(sub.typedData, PERMIT_WITNESS_TRANSFER_FROM_TYPES, 'PermitWitnessTransferFrom', sub.signature);
  const viaSpender = namesSpenderContract(sub.typedData) ? spenderPayCall(sub.typedData, sub.signature, owner) : null;
  const request = viaSpender
    ? { to: viaSpender.target, data: viaSpender.callData }
    : await permitWitnessTransferRequest(relayer, sub.typedData, sub.signature, {
        owner,
        requestedAmount: BigInt(String((sub.typedData.message.permitted as Record<string, unknown>).amount)),
      });
  const tx = await relayer.sendTransaction(request);
  await tx.wait();
  return tx.hash;
}
