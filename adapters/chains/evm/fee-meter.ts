// What one of the relayer's transactions cost it, read from its receipt once included: gas used at
// the price paid, plus the L1 data fee OP-stack receipts carry (`l1Fee`). Recorded per partner so
// no partner's payments can empty the shared relayer for the others.
import { JsonRpcApiProvider, getAddress, type Provider } from 'ethers';
import type { FeeSpent } from '../../../server/ports/chains.ts';

type RawReceipt = { from?: string; gasUsed?: string; effectiveGasPrice?: string; l1Fee?: string | null } | null;

/** The relayer's spend on `txId`, or undefined when it is not included yet or was sent by none of `relayers` (the chain's keys). */
export async function relayerFeeSpent(provider: Provider, relayers: string | readonly string[], txId: string): Promise<FeeSpent | undefined> {
  const ours = new Set((typeof relayers === 'string' ? [relayers] : relayers).map((a) => a.toLowerCase()));
  let receipt: RawReceipt;
  if (provider instanceof JsonRpcApiProvider) {
    receipt = (await provider.send('eth_getTransactionReceipt', [txId])) as RawReceipt;
  } else {
    const r = await provider.getTransactionReceipt(txId);
    receipt = r && { from: r.from, gasUsed: `0x${r.gasUsed.toString(16)}`, effectiveGasPrice: `0x${r.gasPrice.toString(16)}` };
  }
  if (!receipt?.from || !ours.has(receipt.from.toLowerCase()) || !receipt.gasUsed) return undefined;
  const l2 = BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice ?? '0x0');
  return { account: getAddress(receipt.from), txId, amount: l2 + (receipt.l1Fee ? BigInt(receipt.l1Fee) : 0n) };
}
