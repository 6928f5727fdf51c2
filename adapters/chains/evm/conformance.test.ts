// The chain port conformance suite on the EVM adapter, against the sandbox chain (EDR, real USDC
// and Permit2): one asset per flow, a wallet with real keys, and a provider that logs every
// eth_getLogs range the adapter asks.
import { BrowserProvider, JsonRpcProvider, Wallet, keccak256, parseEther, toQuantity, type HDNodeWallet } from 'ethers';
import { createAssetRegistry, type AssetInfo } from '../../../server/domain/assets.ts';
import type { Submission, WireAction } from '../../../server/ports/chains.ts';
import { createEvmSandbox, type EvmSandbox } from '../../sandbox/evm/index.ts';
import { chainPortConformance, type ChainHarness, type ConformanceWallet, type FlowFixture, type Tamper } from '../conformance/chain-port-conformance.ts';
import { submitTransferWithAuthorization } from './eip3009.ts';
import { createEvmChainAdapter } from './gateway-adapter.ts';
import { PERMIT_WITNESS_TRANSFER_FROM_TYPES, permitWitnessTransferRequest } from './permit2-witness.ts';
import { buildTransferTransaction, type EthSendTransactionParams } from './transfer.ts';
import { recoverTypedDataSigner, toEthersTypedData, type Eip712TypedData } from './typed-data.ts';

type Flow = 'eip3009' | 'permit2' | 'transfer';
const PUBLIC_RPC_LOG_RANGE = 2_000;
/** How far past a quote's deadline the clock moves at expiry: beyond the direct-transfer grace (5 min). */
const EXPIRY_STEP_MS = 6 * 60_000;

chainPortConformance(
  'EVM adapter on the sandbox (EDR)',
  [
    { flow: 'eip3009', submittable: true },
    { flow: 'permit2', submittable: true },
    { flow: 'transfer', submittable: false },
  ],
  async (): Promise<ChainHarness> => {
    const sandbox = await createEvmSandbox();
    const rpc = (method: string, params: unknown[] = []) => sandbox.provider.request({ method, params });
    // Every eth_getLogs range the adapter asks, counted below the ethers provider it is given.
    const ranges: Array<{ fromBlock: number; toBlock: number }> = [];
    const provider = new BrowserProvider(
      {
        request: async (args) => {
          if (args.method === 'eth_getLogs' && Array.isArray(args.params)) {
            const f = args.params[0] as { fromBlock: string; toBlock: string };
            ranges.push({
              fromBlock: Number(f.fromBlock),
              toBlock: Number(f.toBlock),
            });
          }
          return sandbox.provider.request(args);
        },
      },
      sandbox.chainId,
      { staticNetwork: true, pollingInterval: 100, cacheTimeout: -1 },
    );
    const relayer = new Wallet(sandbox.relayer.privateKey, provider);
    // Port 9 (discard): nothing answers JSON-RPC there.
    const down = new JsonRpcProvider('http://127.0.0.1:9', sandbox.chainId, { staticNetwork: true });
    // The service's time follows the chain's (mining moves the chain's clock a second a block).
    let offsetMs = 0;
    const now = () => Date.now() + offsetMs;
    const followChain = async () => {
      const block = await provider.getBlock('latest');
      offsetMs = Math.max(offsetMs, block!.timestamp * 1000 - Date.now());
    };
    const port = createEvmChainAdapter([
      {
        caip2: sandbox.caip2,
        provider,
        relayer,
        permit2: sandbox.permit2Address,
        confirmations: 1,
        clock: { now },
      },
    ]);
    const assetFor = (flow: Flow): AssetInfo => {
      const id = `${sandbox.caip2}/erc20:${sandbox.usdcAddress}`;
      return createAssetRegistry([
        {
          id,
          symbol: 'USDC',
          name: 'USD Coin',
          decimals: 6,
          flows: [flow],
          networkName: 'Sandbox',
        },
      ]).get(id)!;
    };
    const fixture = (flow: Flow): FlowFixture => ({
      flow,
      asset: assetFor(flow),
      walletBroadcasts: flow === 'transfer',
      ...(flow === 'eip3009'
        ? {
            submitElsewhere: (sub: Submission) => frontRunAuthorization(sandbox, provider, sub),
          }
        : {}),
      // Permit2 lets only the spender submit: another process holding the relayer key, unrecorded.
      ...(flow === 'permit2'
        ? {
            submitElsewhere: (sub: Submission) => submitPermitOutOfBand(relayer, sub),
          }
        : {}),
    });

    return {
      port,
      namespace: 'eip155',
      caip2: sandbox.caip2,
      otherChain: 'eip155:1',
      broken: {
        misnamed: createEvmChainAdapter([{ caip2: 'eip155:1', provider, relayer, permit2: sandbox.permit2Address, confirmations: 1 }]),
        unreachable: createEvmChainAdapter([
          { caip2: sandbox.caip2, provider: down, relayer: new Wallet(sandbox.relayer.privateKey, down), permit2: sandbox.permit2Address, confirmations: 1 },
        ]),
      },
      // Any case is accepted (wallets send lowercase as often as EIP-55); the checksum is not asked for.
      addresses: {
        valid: [Wallet.createRandom().address, Wallet.createRandom().address.toLowerCase()],
        invalid: ['nope', '0x1234', `0x${'g'.repeat(40)}`],
      },
      flows: (['eip3009', 'permit2', 'transfer'] as const).map(fixture),
      now,
      async newBuyer(_flow, amount) {
        const buyer = Wallet.createRandom(provider);
        await sandbox.fund(buyer.address, sandbox.usdcAddress, amount);
        await sandbox.fund(buyer.address, null, parseEther('0.1'));
        return evmWallet(sandbox, buyer, amount);
      },
      newDestination: () => `${sandbox.caip2}:${Wallet.createRandom().address}`,
      balance: (destination) => sandbox.balanceOf(destination.split(':')[2]!, sandbox.usdcAddress),
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
        const head = await provider.getBlock('latest');
        await rpc('evm_setNextBlockTimestamp', [toQuantity(Math.max(head!.timestamp + 1, Math.ceil(deadline.getTime() / 1000) + 1))]);
        await rpc('evm_mine');
        await followChain();
        offsetMs = Math.max(offsetMs, deadline.getTime() + EXPIRY_STEP_MS - Date.now());
      },
      // The widest eth_getLogs range public RPCs accept (Alchemy's 2,000 blocks), stated here, not read from the adapter.
      scans: {
        ranges: () => [...ranges],
        bound: PUBLIC_RPC_LOG_RANGE,
        head: () => provider.getBlockNumber(),
      },
      close: async () => {
        down.destroy();
        await sandbox.close();
      },
    };
  },
);

/** A wallet with real keys: signs typed data, and signs and broadcasts transactions itself. */
function evmWallet(sandbox: EvmSandbox, buyer: HDNodeWallet, amount: bigint): ConformanceWallet {
  const account = `${sandbox.caip2}:${buyer.address}`;
  return {
    account,
    async act(actions: WireAction[], options = {}) {
      const results: string[] = [];
      for (const action of actions) {
        if (action.type !== 'walletRpc') throw new Error('the wallet runs walletRpc actions only');
        const { method, params } = action.data;
        if (method === 'eth_signTypedData_v4') results.push(await signTyped(sandbox, buyer, JSON.parse(String(params[1])) as Eip712TypedData, options.tamper));
        else if (method === 'eth_sendTransaction') {
          const tx = params[0] as EthSendTransactionParams;
          // Only the payment itself is tampered with or withheld; an approval is sent as asked.
          const isPayment = !tx.data.startsWith('0x095ea7b3');
          results.push(
            await send(
              sandbox,
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

async function signTyped(sandbox: EvmSandbox, buyer: HDNodeWallet, typedData: Eip712TypedData, tamper?: Tamper): Promise<string> {
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
  const signer = tamper === 'wrong-signer' ? Wallet.createRandom(sandbox.ethersProvider) : buyer;
  const { domain, types } = toEthersTypedData(typedData);
  return signer.signTypedData(domain, types, m);
}

/** The transfer with other terms, keeping the option's tag (the 32 bytes after the arguments). */
function tamperTransfer(tx: EthSendTransactionParams, tamper: Tamper | undefined, amount: bigint): EthSendTransactionParams {
  if (tamper !== 'amount' && tamper !== 'destination') return tx;
  const reference = `0x${tx.data.slice(-64)}`;
  const to = tamper === 'destination' ? Wallet.createRandom().address : `0x${tx.data.slice(34, 74)}`;
  return buildTransferTransaction({
    token: tx.to,
    from: tx.from!,
    to,
    value: tamper === 'amount' ? amount - 1n : amount,
    reference,
  });
}

/** Signs (as the buyer, or as another funded account) and broadcasts unless withheld; the tx hash. */
async function send(sandbox: EvmSandbox, buyer: HDNodeWallet, tx: EthSendTransactionParams, otherSender: boolean, withhold: boolean): Promise<string> {
  let sender = buyer;
  if (otherSender) {
    sender = Wallet.createRandom(sandbox.ethersProvider);
    await sandbox.fund(sender.address, null, parseEther('0.1'));
    await sandbox.fund(sender.address, tx.to, 10n ** 12n);
  }
  const raw = await sender.signTransaction(
    await sender.populateTransaction({
      to: tx.to,
      data: tx.data,
      value: 0n,
      gasLimit: 200_000n,
    }),
  );
  if (withhold) return keccak256(raw);
  const answer = (await sandbox.handleJsonRpc({
    jsonrpc: '2.0',
    id: 1,
    method: 'eth_sendRawTransaction',
    params: [raw],
  })) as { result?: string; error?: { message: string } };
  if (!answer.result) throw new Error(`broadcast failed: ${answer.error?.message ?? 'no result'}`);
  return answer.result;
}

/** Another account submits the buyer's EIP-3009 authorization first (it pays the destination all the same). */
async function frontRunAuthorization(sandbox: EvmSandbox, provider: BrowserProvider, sub: Submission): Promise<string> {
  if (sub.flow !== 'eip3009') throw new Error(`not an EIP-3009 submission: ${sub.flow}`);
  const frontRunner = Wallet.createRandom(provider);
  await sandbox.fund(frontRunner.address, null, parseEther('0.1'));
  const hash = await submitTransferWithAuthorization(frontRunner, sub.typedData, sub.signature);
  await provider.waitForTransaction(hash);
  return hash;
}

/** The relayer key submits the permit outside the job (another process): nothing is recorded. */
async function submitPermitOutOfBand(relayer: Wallet, sub: Submission): Promise<string> {
  if (sub.flow !== 'permit2') throw new Error(`not a Permit2 submission: ${sub.flow}`);
  const owner = recoverTypedDataSigner(sub.typedData, PERMIT_WITNESS_TRANSFER_FROM_TYPES, 'PermitWitnessTransferFrom', sub.signature);
  const request = await permitWitnessTransferRequest(relayer, sub.typedData, sub.signature, {
    owner,
    requestedAmount: BigInt(String((sub.typedData.message.permitted as Record<string, unknown>).amount)),
  });
  const tx = await relayer.sendTransaction(request);
  await tx.wait();
  return tx.hash;
}
