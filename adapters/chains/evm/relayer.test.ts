import { Wallet, parseEther, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTransferWithAuthorization, readTokenDomain, submitTransferWithAuthorization } from './eip3009.ts';
import { deriveNonce } from './nonce.ts';
import { waitForReceipt } from './receipts.ts';
import { createSerialQueue, relayerQueue } from './relayer.ts';
import { toEthersTypedData } from './typed-data.ts';
import { startHarness, type Harness } from './test-support.ts';
import type { ExclusiveSections } from '../../../server/ports/exclusive-sections.ts';

describe('createSerialQueue', () => {
  it('runs work in call order, one at a time, and survives failures', async () => {
    const queue = createSerialQueue();
    const log: string[] = [];
    const step = (name: string, ms: number, fail = false) =>
      queue(async () => {
        log.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([step('a', 30), step('b', 1, true), step('c', 1)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });
});

describe('relayerQueue', () => {
  it('runs each submission under one key per relayer account and chain, the same whatever the address case', async () => {
    const keys: string[] = [];
    const sections: ExclusiveSections = {
      run: (key, work) => {
        keys.push(key);
        return work();
      },
      close: async () => {},
    };
    const address = Wallet.createRandom().address;
    expect(await relayerQueue(sections, 'eip155:8453', address)(async () => 'sent')).toBe('sent');
    await relayerQueue(sections, 'eip155:8453', address.toLowerCase())(async () => 'sent');
    await relayerQueue(sections, 'eip155:10', address)(async () => 'sent');
    expect(keys).toEqual([
      `evm-relayer:eip155:8453:${address.toLowerCase()}`,
      `evm-relayer:eip155:8453:${address.toLowerCase()}`,
      `evm-relayer:eip155:10:${address.toLowerCase()}`,
    ]);
  });
});

describe('concurrent gasless submissions from one relayer', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.sandbox.close();
  });

  it('land every payment, including after a rejected one, when serialized', async () => {
    const queue = createSerialQueue();
    const domain = await readTokenDomain(h.sandbox.ethersProvider, h.sandbox.usdcAddress);
    const merchant = Wallet.createRandom().address;
    const buyers: HDNodeWallet[] = [0, 1, 2, 3].map(() => Wallet.createRandom());
    await Promise.all(buyers.map((buyer) => h.sandbox.fund(buyer.address, h.sandbox.usdcAddress, 1_000n)));
    await h.sandbox.fund(buyers[0]?.address ?? '', null, parseEther('1'));
    const submissions = buyers.map(async (buyer, index) => {
      const typedData = buildTransferWithAuthorization({
        token: h.sandbox.usdcAddress,
        chainId: h.sandbox.chainId,
        domain,
        from: buyer.address,
        to: merchant,
        value: 1_000n,
        validAfter: 0n,
        validBefore: 4_000_000_000n,
        nonce: deriveNonce(`pay_${index}`, 'opt').eip3009,
      });
      const { domain: d, types, message } = toEthersTypedData(typedData);
      // Buyer 1 signs with a wrong key: that submission is rejected and must not block the others.
      const signer = index === 1 ? Wallet.createRandom() : buyer;
      const signature = await signer.signTypedData(d, types, message);
      return queue(() => submitTransferWithAuthorization(h.relayer, typedData, signature));
    });
    const settled = await Promise.allSettled(submissions);
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    for (const result of settled) {
      if (result.status === 'fulfilled') {
        expect((await waitForReceipt(h.sandbox.ethersProvider, result.value, { timeoutMs: 5_000, pollMs: 20 })).status).toBe('confirmed');
      }
    }
    expect(await h.sandbox.balanceOf(merchant, h.sandbox.usdcAddress)).toBe(3_000n);
  });
});
