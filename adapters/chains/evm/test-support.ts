// Test support: a sandbox chain plus a wallet that behaves like a real one (signs locally,
// broadcasts through the sandbox's JSON-RPC endpoint as a wallet would through its RPC URL).
import { Wallet, type HDNodeWallet } from 'ethers';
import { createEvmSandbox, type EvmSandbox } from '../../sandbox/evm/index.ts';
import type { EthSendTransactionParams } from './transfer.ts';

export type Harness = { sandbox: EvmSandbox; relayer: Wallet };

/** Starts a sandbox and a relayer signer on it (the service's gas payer). */
export async function startHarness(): Promise<Harness> {
  const sandbox = await createEvmSandbox();
  return { sandbox, relayer: new Wallet(sandbox.relayer.privateKey, sandbox.ethersProvider) };
}

/** A fresh buyer with real random keys, connected to the sandbox for gas estimation. */
export function newBuyer(sandbox: EvmSandbox): HDNodeWallet {
  return Wallet.createRandom(sandbox.ethersProvider);
}

/**
 * Executes an `eth_sendTransaction` action the way a wallet does: fill nonce/gas/fees, sign
 * locally, send `eth_sendRawTransaction` to the chain's JSON-RPC endpoint; answers the tx hash.
 */
export async function walletSend(sandbox: EvmSandbox, wallet: HDNodeWallet, params: EthSendTransactionParams, gasLimit?: bigint): Promise<string> {
  if (params.from !== undefined && params.from !== wallet.address) throw new Error('action is for another account');
  const populated = await wallet.populateTransaction({
    to: params.to,
    data: params.data,
    value: params.value === undefined ? 0n : BigInt(params.value),
    ...(gasLimit === undefined ? {} : { gasLimit }),
  });
  const raw = await wallet.signTransaction(populated);
  const answer = (await sandbox.handleJsonRpc({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] })) as {
    result?: string;
    error?: { message: string };
  };
  if (!answer.result) throw new Error(`broadcast failed: ${answer.error?.message ?? 'no result'}`);
  return answer.result;
}

/** Mines `count` empty blocks (to deepen confirmations). */
export async function mine(sandbox: EvmSandbox, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await sandbox.provider.request({ method: 'evm_mine', params: [] });
}
