// A Permit2 first-timer that signs without waiting for its approval to be mined. A USDT buyer's
// reset to 0 is still waited for: no wallet can send the approval after it before it is mined (the
// node estimates it where the old allowance stands, and USDT refuses non-zero → non-zero), so not
// waiting there makes a buyer who cannot pay at all, not a test of the service.
import type { Buyer } from '../demo-wallet/buyer.ts';

/** The signer waiting for every transaction it sends but the last of `actions` (the approval the permit needs). */
export function waitingButForLast(evm: NonNullable<Buyer['signers']['evm']>, actions: readonly object[]): NonNullable<Buyer['signers']['evm']> {
  const sends = actions.filter((a) => 'data' in a && typeof a.data === 'object' && a.data !== null && (a.data as { method?: unknown }).method === 'eth_sendTransaction').length;
  let waited = 0;
  const wait = evm.waitForReceipt?.bind(evm);
  return { ...evm, waitForReceipt: wait ? async (chainId, hash) => (++waited < sends ? wait(chainId, hash) : undefined) : undefined };
}
