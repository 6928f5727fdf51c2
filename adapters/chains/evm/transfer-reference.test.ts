import { describe, expect, it } from 'vitest';
import { AbiCoder, Interface, Wallet, keccak256 } from 'ethers';
import { appendReference, carriesReference, transferReference } from './transfer-reference.ts';
import { deriveNonce } from './nonce.ts';
import { buildTransferTransaction, erc20Interface } from './transfer.ts';

const PAYMENT = 'pay_01JD0000000000000000000000';

describe('transferReference', () => {
  it('is keccak256(abi.encode(domain, paymentId, optionId)), 32 bytes, deterministic', () => {
    const tag = transferReference(PAYMENT, 'opt_1');
    expect(tag).toBe(keccak256(AbiCoder.defaultAbiCoder().encode(['string', 'string', 'string'], ['merchant-payments/evm-transfer-reference/v1', PAYMENT, 'opt_1'])));
    expect(transferReference(PAYMENT, 'opt_1')).toBe(tag);
    expect(tag).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('differs per payment and per option, with no concatenation ambiguity, and from the gasless nonce', () => {
    const tags = new Set([
      transferReference('pay_a', 'opt_1'),
      transferReference('pay_b', 'opt_1'),
      transferReference('pay_a', 'opt_2'),
      transferReference('pay_ab', 'c'),
      transferReference('pay_a', 'bc'),
    ]);
    expect(tags.size).toBe(5);
    expect(transferReference('pay_a', 'opt_1')).not.toBe(deriveNonce('pay_a', 'opt_1').eip3009);
  });

  it('rejects empty ids', () => {
    expect(() => transferReference('', 'opt')).toThrow();
    expect(() => transferReference('pay', '')).toThrow();
  });
});

describe('the tag in transfer calldata', () => {
  const to = Wallet.createRandom().address;
  const tag = transferReference(PAYMENT, 'opt_1');
  const tagged = buildTransferTransaction({ token: Wallet.createRandom().address, from: Wallet.createRandom().address, to, value: 7_000_000n, reference: tag }).data;
  const plain = erc20Interface.encodeFunctionData('transfer', [to, 7_000_000n]);

  it('follows the ABI-encoded transfer arguments, which still decode to the same call', () => {
    expect(tagged).toBe(`${plain}${tag.slice(2)}`);
    expect(erc20Interface.decodeFunctionData('transfer', tagged).toArray()).toEqual([to, 7_000_000n]);
    expect(appendReference(plain, tag)).toBe(tagged);
    expect(() => appendReference(plain, '0x1234')).toThrow();
  });

  it('is found when present, not when absent or when another option’s tag is there', () => {
    expect(carriesReference(tagged, tag)).toBe(true);
    expect(carriesReference(tagged.toUpperCase().replace('0X', '0x'), tag)).toBe(true);
    expect(carriesReference(plain, tag)).toBe(false);
    expect(carriesReference(appendReference(plain, transferReference(PAYMENT, 'opt_2')), tag)).toBe(false);
    expect(carriesReference(appendReference(plain, transferReference('pay_other', 'opt_1')), tag)).toBe(false);
    expect(carriesReference('0x', tag)).toBe(false);
    expect(carriesReference('not hex', tag)).toBe(false);
  });

  it('is found nested in a smart wallet’s batch call, and only byte-aligned', () => {
    const batch = new Interface(['function executeBatch(address[] dest, uint256[] value, bytes[] func)']);
    const input = batch.encodeFunctionData('executeBatch', [[Wallet.createRandom().address], [0n], [tagged]]);
    expect(carriesReference(input, tag)).toBe(true);
    // The same hex digits shifted by half a byte are not the tag.
    expect(carriesReference(`0x0${tag.slice(2)}0`, tag)).toBe(false);
  });
});
