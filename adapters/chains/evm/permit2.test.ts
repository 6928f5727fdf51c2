import { Contract, MaxUint256, TypedDataEncoder, Wallet, parseEther, type HDNodeWallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveNonce } from './nonce.ts';
import {
  buildApproveTransaction,
  buildPermitTransferFrom,
  isPermit2NonceUsed,
  readErc20Allowance,
  readPermit2Allowance,
  recoverPermitTransferFromSigner,
  submitPermitTransferFrom,
  verifyPermitTransferFrom,
  type PermitTransferFromInput,
} from './permit2.ts';
import { classifySubmitError, waitForReceipt } from './receipts.ts';
import { toEthersTypedData, type Eip712TypedData } from './typed-data.ts';
import { newBuyer, startHarness, walletSend, type Harness } from './test-support.ts';

describe('Permit2 SignatureTransfer on the sandbox', () => {
  let h: Harness;
  const deadline = BigInt(Math.floor(Date.now() / 1000) + 600);

  const sign = (wallet: HDNodeWallet, typedData: Eip712TypedData): Promise<string> => {
    const { domain, types, message } = toEthersTypedData(typedData);
    return wallet.signTypedData(domain, types, message);
  };
  const permitFor = (token: string, amount: bigint, paymentId: string): PermitTransferFromInput => ({
    permit2: h.sandbox.permit2Address,
    chainId: h.sandbox.chainId,
    token,
    amount,
    spender: h.relayer.address,
    nonce: deriveNonce(paymentId, 'opt_1').permit2,
    deadline,
  });

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.sandbox.close();
  });

  it('builds a payload whose domain is the deployed Permit2 separator', async () => {
    const typedData = buildPermitTransferFrom(permitFor(h.sandbox.plainTokenAddress, 5n, 'pay_domain'));
    expect(typedData.types.EIP712Domain?.map((field) => field.name)).toEqual(['name', 'chainId', 'verifyingContract']);
    expect(typedData.message).toMatchObject({ permitted: { token: h.sandbox.plainTokenAddress, amount: '0x5' }, spender: h.relayer.address });
    const permit2 = new Contract(h.sandbox.permit2Address, ['function DOMAIN_SEPARATOR() view returns (bytes32)'], h.sandbox.ethersProvider);
    expect(TypedDataEncoder.hashDomain(typedData.domain)).toBe(await permit2.getFunction('DOMAIN_SEPARATOR')());
  });

  it('two-action case: allowance short → approve tx, then a gasless signature pays exactly the amount', async () => {
    const token = h.sandbox.plainTokenAddress;
    const amount = 42_000_000n;
    const buyer = newBuyer(h.sandbox);
    const merchant = Wallet.createRandom().address;
    await h.sandbox.fund(buyer.address, token, 100_000_000n);
    await h.sandbox.fund(buyer.address, null, parseEther('1'));

    expect(await readPermit2Allowance(h.sandbox.ethersProvider, token, buyer.address, h.sandbox.permit2Address)).toBe(0n);
    const approve = buildApproveTransaction({ token, spender: h.sandbox.permit2Address, amount: MaxUint256, from: buyer.address });
    expect(approve).toMatchObject({ from: buyer.address, to: token, value: '0x0' });
    const approveHash = await walletSend(h.sandbox, buyer, approve);
    expect((await waitForReceipt(h.sandbox.ethersProvider, approveHash, { timeoutMs: 5_000, pollMs: 20 })).status).toBe('confirmed');
    expect(await readErc20Allowance(h.sandbox.ethersProvider, token, buyer.address, h.sandbox.permit2Address)).toBe(MaxUint256);

    const typedData = buildPermitTransferFrom(permitFor(token, amount, 'pay_permit2_two_action'));
    const signature = await sign(buyer, JSON.parse(JSON.stringify(typedData)) as Eip712TypedData);
    expect(recoverPermitTransferFromSigner(typedData, signature)).toBe(buyer.address);
    expect(verifyPermitTransferFrom(typedData, signature, buyer.address)).toBe(true);

    const nativeBefore = await h.sandbox.balanceOf(buyer.address, null);
    const txHash = await submitPermitTransferFrom(h.relayer, typedData, signature, { owner: buyer.address, to: merchant, requestedAmount: amount });
    expect((await waitForReceipt(h.sandbox.ethersProvider, txHash, { timeoutMs: 5_000, pollMs: 20 })).status).toBe('confirmed');
    expect(await h.sandbox.balanceOf(merchant, token)).toBe(amount);
    expect(await h.sandbox.balanceOf(buyer.address, token)).toBe(100_000_000n - amount);
    expect(await h.sandbox.balanceOf(buyer.address, null)).toBe(nativeBefore);
    const nonce = deriveNonce('pay_permit2_two_action', 'opt_1').permit2;
    expect(await isPermit2NonceUsed(h.sandbox.ethersProvider, h.sandbox.permit2Address, buyer.address, nonce)).toBe(true);

    // Replaying the same permit is refused before anything is broadcast.
    const replay = await submitPermitTransferFrom(h.relayer, typedData, signature, { owner: buyer.address, to: merchant, requestedAmount: amount }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(classifySubmitError(replay)).toBe('rejected');
    expect(await h.sandbox.balanceOf(merchant, token)).toBe(amount);
  });

  it('one-action case with USDC already approved: the buyer spends no gas at all', async () => {
    const token = h.sandbox.usdcAddress;
    const buyer = newBuyer(h.sandbox);
    const merchant = Wallet.createRandom().address;
    await h.sandbox.fund(buyer.address, token, 10_000_000n);
    await h.sandbox.fund(buyer.address, null, parseEther('1'));
    await walletSend(h.sandbox, buyer, buildApproveTransaction({ token, spender: h.sandbox.permit2Address, amount: 10_000_000n }));
    const nativeBefore = await h.sandbox.balanceOf(buyer.address, null);
    const typedData = buildPermitTransferFrom(permitFor(token, 9_999_999n, 'pay_permit2_usdc'));
    const signature = await sign(buyer, typedData);
    const txHash = await submitPermitTransferFrom(h.relayer, typedData, signature, { owner: buyer.address, to: merchant, requestedAmount: 9_999_999n });
    expect((await waitForReceipt(h.sandbox.ethersProvider, txHash, { timeoutMs: 5_000, pollMs: 20 })).status).toBe('confirmed');
    expect(await h.sandbox.balanceOf(merchant, token)).toBe(9_999_999n);
    expect(await h.sandbox.balanceOf(buyer.address, null)).toBe(nativeBefore);
  });

  it('fails verification for a signature over another amount, spender, nonce, token or by another key', async () => {
    const buyer = newBuyer(h.sandbox);
    const input = permitFor(h.sandbox.plainTokenAddress, 1_000n, 'pay_permit2_adv');
    const expected = buildPermitTransferFrom(input);
    const variants: PermitTransferFromInput[] = [
      { ...input, amount: 999n },
      { ...input, spender: Wallet.createRandom().address },
      { ...input, nonce: deriveNonce('pay_other', 'opt_1').permit2 },
      { ...input, token: h.sandbox.usdcAddress },
      { ...input, deadline: input.deadline + 1n },
    ];
    for (const variant of variants) {
      expect(verifyPermitTransferFrom(expected, await sign(buyer, buildPermitTransferFrom(variant)), buyer.address)).toBe(false);
    }
    expect(verifyPermitTransferFrom(expected, await sign(Wallet.createRandom(), expected), buyer.address)).toBe(false);
    expect(verifyPermitTransferFrom(expected, '0xdeadbeef', buyer.address)).toBe(false);
    expect(verifyPermitTransferFrom(expected, await sign(buyer, expected), buyer.address)).toBe(true);
  });

  it('refuses on chain a permit signed for a smaller amount, and guards spender and amount locally', async () => {
    const token = h.sandbox.plainTokenAddress;
    const buyer = newBuyer(h.sandbox);
    const merchant = Wallet.createRandom().address;
    await h.sandbox.fund(buyer.address, token, 5_000n);
    await h.sandbox.fund(buyer.address, null, parseEther('1'));
    await walletSend(h.sandbox, buyer, buildApproveTransaction({ token, spender: h.sandbox.permit2Address, amount: MaxUint256 }));
    const input = permitFor(token, 5_000n, 'pay_permit2_forged');
    const expected = buildPermitTransferFrom(input);
    const forged = await sign(buyer, buildPermitTransferFrom({ ...input, amount: 1n }));
    const error = await submitPermitTransferFrom(h.relayer, expected, forged, { owner: buyer.address, to: merchant, requestedAmount: 5_000n }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(classifySubmitError(error)).toBe('rejected');

    const good = await sign(buyer, expected);
    const stranger = new Wallet(Wallet.createRandom().privateKey, h.sandbox.ethersProvider);
    await expect(submitPermitTransferFrom(stranger, expected, good, { owner: buyer.address, to: merchant, requestedAmount: 5_000n })).rejects.toThrow(/spender/);
    await expect(submitPermitTransferFrom(h.relayer, expected, good, { owner: buyer.address, to: merchant, requestedAmount: 5_001n })).rejects.toThrow(/requestedAmount/);
    expect(await h.sandbox.balanceOf(merchant, token)).toBe(0n);
  });
});
