import { Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { buildTransferWithAuthorization, verifyTransferWithAuthorization } from './eip3009.ts';
import { deriveNonce } from './nonce.ts';
import { toEthersTypedData, type Eip712TypedData } from './typed-data.ts';
import { buildTransferTransaction } from './transfer.ts';
import { sendTransactionParams, signTypedDataV4Params } from './wallet-rpc.ts';

describe('walletRpc params', () => {
  it('carries typed data as a JSON string a wallet can sign and the service can verify', async () => {
    const buyer = Wallet.createRandom();
    const typedData = buildTransferWithAuthorization({
      token: Wallet.createRandom().address,
      chainId: 8453,
      domain: { name: 'USD Coin', version: '2' },
      from: buyer.address,
      to: Wallet.createRandom().address,
      value: 1_000_000n,
      validAfter: 0n,
      validBefore: 1_900_000_000n,
      nonce: deriveNonce('pay_wire', 'opt_1').eip3009,
    });
    const params = signTypedDataV4Params(buyer.address.toLowerCase(), typedData);
    expect(params[0]).toBe(buyer.address);
    expect(typeof params[1]).toBe('string');
    // What a wallet does with the action: parse the string, sign, answer the signature.
    const { domain, types, message } = toEthersTypedData(JSON.parse(params[1]) as Eip712TypedData);
    expect(domain.chainId).toBe('0x2105');
    const signature = await buyer.signTypedData(domain, types, message);
    expect(verifyTransferWithAuthorization(typedData, signature)).toBe(true);
  });

  it('wraps one transaction object for eth_sendTransaction', () => {
    const tx = buildTransferTransaction({ token: Wallet.createRandom().address, from: Wallet.createRandom().address, to: Wallet.createRandom().address, value: 1n });
    expect(sendTransactionParams(tx)).toEqual([tx]);
  });
});
