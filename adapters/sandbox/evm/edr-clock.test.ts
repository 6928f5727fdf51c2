import { describe, expect, it } from 'vitest';
import { startEdrNode } from './edr-node.ts';

// Authorizations carry deadlines checked against block.timestamp (EIP-3009 validBefore, Permit2
// deadline). When every block had to be a second later than the one before, a sandbox mining
// several blocks a second ran ahead of the wall clock (67 s after 60 quick faucet calls) and
// refused every authorization signed for the real time: the fault suite's load saw all EVM
// payments released with "refused before broadcast".
describe('the sandbox EVM clock', () => {
  it('stays with the wall clock while many blocks are mined in a second', { timeout: 30_000 }, async () => {
    const node = await startEdrNode({ chainId: 31337n, prefunded: [] });
    for (let i = 0; i < 40; i++) {
      const mined = await node.call('evm_mine', []);
      expect(mined).not.toHaveProperty('error');
    }
    const latest = await node.call('eth_getBlockByNumber', ['latest', false]);
    if (!('result' in latest)) throw new Error(`eth_getBlockByNumber failed: ${JSON.stringify(latest)}`);
    const block = latest.result as { number: string; timestamp: string };
    expect(Number(block.number)).toBeGreaterThanOrEqual(40);
    expect(Number(block.timestamp)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 2);
  });
});
