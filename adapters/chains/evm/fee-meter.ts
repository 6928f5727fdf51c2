// What one of the relayer's transactions cost it, read from its receipt once included: gas used at
// the price paid, plus the L1 data fee OP-stack receipts carry (`l1Fee`), split evenly over the
// payments of a batch. Recorded per partner so no partner's payments can empty the shared relayer
// for the others.
import { JsonRpcApiProvider, getAddress, type Provider } from 'ethers';
import type { FeeSpent } from '../../../server/ports/chains.ts';
import { MULTICALL3_ADDRESS, callsIn } from './multicall.ts';

type RawReceipt = { from?: string; to?: string | null; gasUsed?: string; effectiveGasPrice?: string; l1Fee?: string | null } | null;

/** The relayer's spend on `txId`, or undefined when it is not included yet or was sent by none of `relayers` (the chain's keys). */
export async function relayerFeeSpent(provider: Provider, relayers: string | readonly string[], txId: string): Promise<FeeSpent | undefined> {
  const ours = new Set((typeof relayers === 'string' ? [relayers] : relayers).map((a) => a.toLowerCase()));
  let receipt: RawReceipt;
  if (provider instanceof JsonRpcApiProvider) {
    receipt = (await provider.send('eth_getTransactionReceipt', [txId])) as RawReceipt;
  } else {
    const r = await provider.getTransactionReceipt(txId);
    receipt = r && { from: r.from, to: r.to, gasUsed: `0x${r.gasUsed.toString(16)}`, effectiveGasPrice: `0x${r.gasPrice.toString(16)}` };
  }
  if (!receipt?.from || !ours.has(receipt.from.toLowerCase()) || !receipt.gasUsed) return undefined;
  const l2 = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice ?? '0x0');
  const total = l2 + (receipt.l1Fee ? BigInt(receipt.l1Fee) : 0n);
  // A batch (Multicall3) served several payments: each is charged an equal share, its dropped-in-flight calls' included.
  const calls = receipt.to && receipt.to.toLowerCase() === MULTICALL3_ADDRESS.toLowerCase() ? callsIn(receipt.to, (await provider.getTransaction(txId))?.data ?? '0x') : 1;
  return { account: getAddress(receipt.from), txId, amount: total / BigInt(calls) };
}
