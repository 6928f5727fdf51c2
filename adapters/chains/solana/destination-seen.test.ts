// A merchant's Solana token account, once seen, keeps Solana in options while the node answering
// the next look fails: every payment to a merchant asks, and a throttling or lagging node must not
// drop the chain (the chain fault suite saw it under 429s and a node 4 slots behind).
import { Keypair } from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import type { OptionRequest } from '../../../server/ports/chains.ts';
import { inProcessFaults } from '../../../tools/chain-faults/index.ts';
import { createSolanaSandbox } from '../../sandbox/solana/index.ts';
import { createSolanaChainAdapter } from './gateway-adapter.ts';

const sandbox = createSolanaSandbox();
afterAll(() => sandbox.close());

describe("a merchant's Solana token account seen", () => {
  it('is not read again for the next payments, and a failing read then does not drop the option', async () => {
    const faults = inProcessFaults({ solana: sandbox.connection });
    const port = createSolanaChainAdapter([{ caip2: sandbox.caip2, connection: faults.solana(0), feePayer: sandbox.feePayer }]);
    const id = `${sandbox.caip2}/token:${sandbox.mint.toBase58()}`;
    const asset = createAssetRegistry([{ id, symbol: 'USDC', name: 'USD Coin', decimals: 6, flows: ['spl'], networkName: 'Sandbox' }]).get(id)!;
    const merchant = Keypair.generate().publicKey.toBase58();
    sandbox.openTokenAccount(merchant);
    const request = (n: number): OptionRequest => ({
      paymentId: `pay_seen_${n}`,
      optionId: `opt_seen_${n}`,
      account: `${sandbox.caip2}:${Keypair.generate().publicKey.toBase58()}`,
      asset,
      amount: 1_000_000n,
      destination: `${sandbox.caip2}:${merchant}`,
      deadline: new Date(Date.now() + 300_000),
      quotedAt: new Date(),
    });
    expect('unavailable' in (await port.prepareOption(request(1)))).toBe(false);
    const readsAfterFirst = faults.control.calls({ method: 'getAccountInfo' }).length;
    faults.control.set('solana:0', { kind: 'rpc-error', code: -32005, message: 'Node is behind by 4 slots' }, { methods: ['getAccountInfo'] });
    // before: the destination read again for every payment, and its failure dropped Solana from options.
    const second = await port.prepareOption(request(2));
    expect('unavailable' in second ? second.unavailable : 'offered').toBe('offered');
    expect(faults.control.calls({ method: 'getAccountInfo' })).toHaveLength(readsAfterFirst);
  });
});
