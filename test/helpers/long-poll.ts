import { Wallet } from 'ethers';
import type { ChainPort } from '../../server/ports/chains.ts';
import type { PaymentChangesPort } from '../../server/ports/payment-changes.ts';

/**
 * An EVM chain adapter that accepts any one result and never moves a payment itself: confirm
 * takes the payment to processing, and the test decides when it succeeds or is released.
 */
export const passiveChain: ChainPort = {
  namespace: 'eip155',
  supportsChain: (caip2) => caip2 === 'eip155:8453',
  isValidAddress: (a) => /^0x[0-9a-fA-F]{40}$/.test(a),
  async prepareOption(req) {
    return {
      actions: [{ type: 'walletRpc', data: { chain_id: 'eip155:8453', method: 'eth_signTypedData_v4', params: [req.account, '{}'] } }],
      state: { flow: 'transfer' },
      etaS: 2,
    };
  },
  expectedResults: () => 1,
  async verifyResults() {
    return { ok: true, submission: { flow: 'transfer' } };
  },
  async advance() {
    return { state: 'pending' };
  },
};

export const buyerAccount = () => `eip155:8453:${Wallet.createRandom().address}`;

/** The adapter, counting the requests waiting on it right now. */
export function countingWaiters(changes: PaymentChangesPort) {
  let waiting = 0;
  return {
    get waiting() {
      return waiting;
    },
    port: {
      subscribe(id, onSignal) {
        waiting += 1;
        const off = changes.subscribe(id, onSignal);
        let done = false;
        return () => {
          if (!done) waiting -= 1;
          done = true;
          off();
        };
      },
      close: () => changes.close(),
    } satisfies PaymentChangesPort,
  };
}
