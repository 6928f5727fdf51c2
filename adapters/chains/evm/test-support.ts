// Test support: a sandbox chain plus a wallet that behaves like a real one (signs locally,
// broadcasts through the sandbox's JSON-RPC endpoint as a wallet would through its RPC URL).
import { Transaction, Wallet, type HDNodeWallet } from 'ethers';
import { createEvmSandbox, type EvmSandbox } from '../../sandbox/evm/index.ts';
import type { EthSendTransactionParams } from './transfer.ts';
import type { AdvanceContext, ChainPort, OptionRequest, RecordedTransaction, Submission, TransferState } from '../../../server/ports/chains.ts';

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

/**
 * One payment's storage side, in memory: what the settlement job reads and writes around
 * `port.advance`. A record takes only over the transaction it replaces; with `crashAfterRecord`
 * the process "dies" right after the record commits, before anything is broadcast.
 */
export function memoryPaymentStore(port: ChainPort) {
  const state = { recorded: null as RecordedTransaction | null, records: 0, crashAfterRecord: false };
  const ctx = (): AdvanceContext => ({
    rawTx: state.recorded?.rawTx ?? null,
    recordedAt: null,
    async record(tx, replaces) {
      if ((state.recorded?.txId ?? null) !== replaces) return false;
      state.recorded = tx;
      state.records++;
      if (state.crashAfterRecord) throw new Error('crash after record');
      return true;
    },
  });
  const advance = (req: OptionRequest, sub: Submission): Promise<TransferState> => port.advance(req, sub, state.recorded?.txId ?? null, ctx());
  return { state, advance };
}

/** A 0-value transfer `wallet` signs at `nonce` on the sandbox, priced at its current fees (`to` makes the bytes differ). */
export async function signedZeroTransfer(sandbox: EvmSandbox, wallet: Wallet, nonce: number, to: string = Wallet.createRandom().address): Promise<string> {
  const fees = await sandbox.ethersProvider.getFeeData();
  return wallet.signTransaction(
    Transaction.from({
      to,
      value: 0n,
      gasLimit: 21_000n,
      chainId: sandbox.chainId,
      nonce,
      type: 2,
      maxFeePerGas: fees.maxFeePerGas!,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas!,
    }),
  );
}
