import { Interface, Wallet, type Provider } from 'ethers';
import { describe, expect, it } from 'vitest';
import { readTokenDomain } from './eip3009.ts';

const erc20 = new Interface(['function name() view returns (string)', 'function version() view returns (string)']);

/** A provider stub answering name()/version() the way `behaviour` says, counting calls. */
function stubProvider(behaviour: { version: 'ok' | 'missing' | 'rpc-error'; chainId?: bigint }) {
  const calls = { count: 0 };
  const provider = {
    getNetwork: async () => ({ chainId: behaviour.chainId ?? 1n }),
    call: async (tx: { data: string }) => {
      calls.count++;
      if (tx.data.startsWith(erc20.getFunction('name')?.selector ?? '-')) return erc20.encodeFunctionResult('name', ['Stub Dollar']);
      if (behaviour.version === 'missing') return '0x';
      if (behaviour.version === 'rpc-error') throw new Error('connection reset');
      return erc20.encodeFunctionResult('version', ['7']);
    },
  };
  return { provider: provider as unknown as Provider, calls };
}

describe('readTokenDomain', () => {
  it('reads name and version once per chain and token', async () => {
    const token = Wallet.createRandom().address;
    const { provider, calls } = stubProvider({ version: 'ok' });
    expect(await readTokenDomain(provider, token)).toEqual({ name: 'Stub Dollar', version: '7' });
    expect(await readTokenDomain(provider, token.toLowerCase())).toEqual({ name: 'Stub Dollar', version: '7' });
    expect(calls.count).toBe(2);
    const other = stubProvider({ version: 'ok', chainId: 2n });
    await readTokenDomain(other.provider, token);
    expect(other.calls.count).toBe(2);
  });

  it('falls back to version "1" only when the token has no version()', async () => {
    const { provider } = stubProvider({ version: 'missing' });
    expect(await readTokenDomain(provider, Wallet.createRandom().address)).toEqual({ name: 'Stub Dollar', version: '1' });
  });

  it('does not cache an RPC failure', async () => {
    const token = Wallet.createRandom().address;
    await expect(readTokenDomain(stubProvider({ version: 'rpc-error' }).provider, token)).rejects.toThrow();
    expect(await readTokenDomain(stubProvider({ version: 'ok' }).provider, token)).toEqual({ name: 'Stub Dollar', version: '7' });
  });
});
