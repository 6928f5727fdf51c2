import { Contract, TypedDataEncoder, Wallet, parseEther, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTransferWithAuthorization,
  readAuthorizationState,
  readTokenDomain,
  recoverTransferWithAuthorizationSigner,
  submitTransferWithAuthorization,
  verifyTransferWithAuthorization,
  type TransferWithAuthorizationInput,
} from './eip3009.ts';
import { deriveNonce } from './nonce.ts';
import { classifySubmitError, waitForReceipt } from './receipts.ts';
import { toEthersTypedData, type Eip712TypedData } from './typed-data.ts';
import { newBuyer, startHarness, type Harness } from './test-support.ts';

describe('EIP-3009 transferWithAuthorization on sandbox USDC', () => {
  let h: Harness;
  let buyer: HDNodeWallet;
  let merchant: string;
  let base: TransferWithAuthorizationInput;
  const now = BigInt(Math.floor(Date.now() / 1000));

  const sign = (wallet: HDNodeWallet, typedData: Eip712TypedData): Promise<string> => {
    const { domain, types, message } = toEthersTypedData(typedData);
    return wallet.signTypedData(domain, types, message);
  };

  beforeAll(async () => {
    h = await startHarness();
    buyer = newBuyer(h.sandbox);
    merchant = Wallet.createRandom().address;
    await h.sandbox.fund(buyer.address, h.sandbox.usdcAddress, 100_000_000n);
    await h.sandbox.fund(buyer.address, null, parseEther('1'));
    base = {
      token: h.sandbox.usdcAddress,
      chainId: h.sandbox.chainId,
      domain: await readTokenDomain(h.sandbox.ethersProvider, h.sandbox.usdcAddress),
      from: buyer.address,
      to: merchant,
      value: 12_345_678n,
      validAfter: 0n,
      validBefore: now + 600n,
      nonce: deriveNonce('pay_eip3009_happy', 'opt_1').eip3009,
    };
  });
  afterAll(async () => {
    await h.sandbox.close();
  });

  it('reads the token domain and builds the exact eth_signTypedData_v4 payload', async () => {
    expect(base.domain).toEqual({ name: 'USD Coin', version: '2' });
    const typedData = buildTransferWithAuthorization(base);
    expect(typedData.primaryType).toBe('TransferWithAuthorization');
    expect(typedData.domain).toEqual({ name: 'USD Coin', version: '2', chainId: '0x7a69', verifyingContract: h.sandbox.usdcAddress });
    expect(typedData.types.EIP712Domain?.map((field) => field.name)).toEqual(['name', 'version', 'chainId', 'verifyingContract']);
    expect(typedData.message).toEqual({
      from: buyer.address,
      to: merchant,
      value: '0xbc614e',
      validAfter: '0x0',
      validBefore: `0x${base.validBefore.toString(16)}`,
      nonce: base.nonce,
    });
    // The domain we build hashes to the token's own separator, so wallets' signatures verify on chain.
    const usdc = new Contract(h.sandbox.usdcAddress, ['function DOMAIN_SEPARATOR() view returns (bytes32)'], h.sandbox.ethersProvider);
    expect(TypedDataEncoder.hashDomain(typedData.domain)).toBe(await usdc.getFunction('DOMAIN_SEPARATOR')());
  });

  it('pays gaslessly: signature verifies, relayer submits, merchant gets exactly the value', async () => {
    const typedData = buildTransferWithAuthorization(base);
    // The payload crosses the wire as JSON to the wallet and back.
    const signature = await sign(buyer, JSON.parse(JSON.stringify(typedData)) as Eip712TypedData);
    expect(recoverTransferWithAuthorizationSigner(typedData, signature)).toBe(buyer.address);
    expect(verifyTransferWithAuthorization(typedData, signature)).toBe(true);

    const nativeBefore = await h.sandbox.balanceOf(buyer.address, null);
    const buyerUsdcBefore = await h.sandbox.balanceOf(buyer.address, h.sandbox.usdcAddress);
    const txHash = await submitTransferWithAuthorization(h.relayer, typedData, signature);
    const result = await waitForReceipt(h.sandbox.ethersProvider, txHash, { confirmations: 1, timeoutMs: 5_000, pollMs: 20 });
    expect(result.status).toBe('confirmed');

    expect(await h.sandbox.balanceOf(merchant, h.sandbox.usdcAddress)).toBe(base.value);
    expect(await h.sandbox.balanceOf(buyer.address, h.sandbox.usdcAddress)).toBe(buyerUsdcBefore - base.value);
    expect(await h.sandbox.balanceOf(buyer.address, null)).toBe(nativeBefore);
    expect(await readAuthorizationState(h.sandbox.ethersProvider, h.sandbox.usdcAddress, buyer.address, base.nonce)).toBe(true);
  });

  it('refuses a replay of a used authorization before broadcasting', async () => {
    const typedData = buildTransferWithAuthorization(base);
    const signature = await sign(buyer, typedData);
    const error = await submitTransferWithAuthorization(h.relayer, typedData, signature).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).not.toBeNull();
    expect(classifySubmitError(error)).toBe('rejected');
    expect(await h.sandbox.balanceOf(merchant, h.sandbox.usdcAddress)).toBe(base.value);
  });

  it('fails verification for a signature over another amount, destination, nonce or by another key', async () => {
    const expected = buildTransferWithAuthorization({ ...base, nonce: deriveNonce('pay_eip3009_adv', 'opt_1').eip3009 });
    const variants: TransferWithAuthorizationInput[] = [
      { ...base, nonce: expected.message.nonce as string, value: base.value - 1n },
      { ...base, nonce: expected.message.nonce as string, to: Wallet.createRandom().address },
      { ...base, nonce: deriveNonce('pay_other', 'opt_1').eip3009 },
      { ...base, nonce: expected.message.nonce as string, validBefore: base.validBefore + 1n },
    ];
    for (const variant of variants) {
      const signature = await sign(buyer, buildTransferWithAuthorization(variant));
      expect(verifyTransferWithAuthorization(expected, signature)).toBe(false);
    }
    const stranger = Wallet.createRandom();
    expect(verifyTransferWithAuthorization(expected, await sign(stranger, expected))).toBe(false);
    expect(verifyTransferWithAuthorization(expected, '0x1234')).toBe(false);
    expect(verifyTransferWithAuthorization(expected, await sign(buyer, expected))).toBe(true);
  });

  it('rejects on chain a signature over another amount (nothing moves)', async () => {
    const expected = buildTransferWithAuthorization({ ...base, nonce: deriveNonce('pay_eip3009_chain', 'opt_1').eip3009 });
    const forged = await sign(buyer, buildTransferWithAuthorization({ ...base, nonce: expected.message.nonce as string, value: 1n }));
    const merchantBefore = await h.sandbox.balanceOf(merchant, h.sandbox.usdcAddress);
    const error = await submitTransferWithAuthorization(h.relayer, expected, forged).then(
      () => null,
      (e: unknown) => e,
    );
    expect(classifySubmitError(error)).toBe('rejected');
    expect(await h.sandbox.balanceOf(merchant, h.sandbox.usdcAddress)).toBe(merchantBefore);
  });

  it('validates its inputs', () => {
    expect(() => buildTransferWithAuthorization({ ...base, value: 0n })).toThrow();
    expect(() => buildTransferWithAuthorization({ ...base, validBefore: 0n })).toThrow();
    expect(() => buildTransferWithAuthorization({ ...base, nonce: '0x12' })).toThrow();
    expect(() => buildTransferWithAuthorization({ ...base, to: '0xnot-an-address' })).toThrow();
  });
});
