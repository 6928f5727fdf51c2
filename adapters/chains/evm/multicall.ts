// Multicall3 (mds1/multicall) at its canonical address: `aggregate3` makes several calls in one
// transaction, each allowed to fail without reverting the others. The relayer batches EIP-3009
// transfers through it: `transferWithAuthorization` may be sent by anyone, so Multicall3 being the
// caller changes nothing for the token. (Permit2 cannot be: the permit names the relayer key as its
// spender, and Multicall3 would be the caller.)
import { Interface, isError, type Provider } from 'ethers';

/** Multicall3's address on every chain it is deployed on (and in the sandbox). */
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11';

export const multicall3Interface = new Interface([
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
  'function getChainId() view returns (uint256 chainid)',
]);

export type Call3 = { target: string; callData: string };

/** aggregate3's calldata for `calls`, each allowed to fail: one bad authorization never reverts the others. */
export function aggregate3Data(calls: readonly Call3[]): string {
  return multicall3Interface.encodeFunctionData('aggregate3', [calls.map((c) => ({ target: c.target, allowFailure: true, callData: c.callData }))]);
}

/** Whether each call of `calls` succeeds when simulated now from `from` (eth_call of the whole batch). */
export async function simulateAggregate3(provider: Provider, from: string, calls: readonly Call3[]): Promise<boolean[]> {
  const raw = await provider.call({ from, to: MULTICALL3_ADDRESS, data: aggregate3Data(calls) });
  const [results] = multicall3Interface.decodeFunctionResult('aggregate3', raw) as unknown as [{ success: boolean }[]];
  return results.map((r) => r.success);
}

/** How many calls a transaction's input makes through aggregate3; 1 for any other input (a lone call). */
export function callsIn(to: string | null | undefined, data: string): number {
  if (!to || to.toLowerCase() !== MULTICALL3_ADDRESS.toLowerCase()) return 1;
  try {
    const [calls] = multicall3Interface.decodeFunctionData('aggregate3', data) as unknown as [unknown[]];
    return Math.max(1, calls.length);
  } catch {
    return 1;
  }
}

/**
 * Null when Multicall3 is at its address and answers aggregate3 on this chain (getChainId through
 * it returns the chain's id); else why batching is off there (payments then go one per transaction).
 */
export async function multicall3Problem(provider: Provider, chainId: bigint): Promise<string | null> {
  if ((await provider.getCode(MULTICALL3_ADDRESS)) === '0x') return `no contract at Multicall3's address ${MULTICALL3_ADDRESS}`;
  try {
    const raw = await provider.call({
      to: MULTICALL3_ADDRESS,
      data: aggregate3Data([{ target: MULTICALL3_ADDRESS, callData: multicall3Interface.encodeFunctionData('getChainId') }]),
    });
    const [results] = multicall3Interface.decodeFunctionResult('aggregate3', raw) as unknown as [{ success: boolean; returnData: string }[]];
    const answer = results[0]?.success ? (multicall3Interface.decodeFunctionResult('getChainId', results[0].returnData)[0] as bigint) : null;
    return answer === chainId ? null : `the contract at ${MULTICALL3_ADDRESS} does not answer aggregate3 as Multicall3 does`;
  } catch (err) {
    // A revert or an undecodable answer is not Multicall3; an RPC failure says nothing (asked again).
    if (!isError(err, 'CALL_EXCEPTION') && !isError(err, 'BAD_DATA')) throw err;
    return `the contract at ${MULTICALL3_ADDRESS} does not answer aggregate3 as Multicall3 does`;
  }
}
