import { Keypair, SystemProgram, Transaction } from '@solana/web3.js';
import { Wallet, verifyTypedData } from 'ethers';
import { describe, expect, it } from 'vitest';
import type { WalletRpcAction } from '../gateway/actions.ts';
import { ethersWalletSigner } from '../signers/ethers-wallet-signer.ts';
import { solanaKeypairSigner } from '../signers/solana-signers.ts';
import { bytesToBase64, base64ToBytes } from '../util/base64.ts';
import { executeActions } from './execute-actions.ts';

const wallet = new Wallet('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const token = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/** An EIP-3009 TransferWithAuthorization request exactly as a v4 wallet would receive it. */
function transferWithAuthorization(from: string) {
  return {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
        { name: 'chainId', type: 'uint256' },
        { name: 'verifyingContract', type: 'address' },
      ],
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    },
    primaryType: 'TransferWithAuthorization',
    domain: { name: 'USD Coin', version: '2', chainId: '0x2105', verifyingContract: token },
    message: {
      from,
      to: '0x000000000000000000000000000000000000dEaD',
      value: '1000000',
      validAfter: '0',
      validBefore: '0x77359400',
      nonce: `0x${'ab'.repeat(32)}`,
    },
  };
}

describe('executor with real keys', () => {
  it('signs EIP-712 typed data with an ethers Wallet; the signer is recovered from the signature', async () => {
    const typed = transferWithAuthorization(wallet.address);
    const action: WalletRpcAction = {
      type: 'walletRpc',
      walletRpc: { chainId: 'eip155:8453', method: 'eth_signTypedData_v4', params: JSON.stringify([wallet.address, JSON.stringify(typed)]) },
    };
    const [result] = await executeActions([action], { evm: ethersWalletSigner(wallet, { chainIds: [8453] }) });
    const { EIP712Domain: _domain, ...types } = typed.types;
    const recovered = verifyTypedData(typed.domain, types, typed.message, result?.data[0] ?? '');
    expect(recovered).toBe(wallet.address);
    const other = verifyTypedData(typed.domain, types, { ...typed.message, value: '1000001' }, result?.data[0] ?? '');
    expect(other).not.toBe(wallet.address);
  });

  it('signs a service-built Solana transaction with a Keypair and returns the whole transaction, verifiable', async () => {
    const feePayer = Keypair.generate();
    const buyer = Keypair.generate();
    const tx = new Transaction({ feePayer: feePayer.publicKey, recentBlockhash: Keypair.generate().publicKey.toBase58() });
    tx.add(SystemProgram.transfer({ fromPubkey: buyer.publicKey, toPubkey: feePayer.publicKey, lamports: 1000 }));
    tx.partialSign(feePayer);
    const unsigned = bytesToBase64(tx.serialize({ requireAllSignatures: false }));
    const action: WalletRpcAction = {
      type: 'walletRpc',
      walletRpc: { chainId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', method: 'solana_signTransaction', params: JSON.stringify([{ transaction: unsigned }]) },
    };
    const [result] = await executeActions([action], { solana: solanaKeypairSigner(buyer) });
    const signed = Transaction.from(base64ToBytes(result?.data[0] ?? ''));
    expect(signed.verifySignatures()).toBe(true);
    expect(signed.signatures.map((s) => s.publicKey.toBase58())).toEqual([feePayer.publicKey.toBase58(), buyer.publicKey.toBase58()]);
    expect(signed.compileMessage().serialize()).toEqual(tx.compileMessage().serialize());
  });

  it('refuses to sign a Solana transaction that does not name the key as a signer', async () => {
    const feePayer = Keypair.generate();
    const tx = new Transaction({ feePayer: feePayer.publicKey, recentBlockhash: Keypair.generate().publicKey.toBase58() });
    tx.add(SystemProgram.transfer({ fromPubkey: feePayer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1 }));
    const unsigned = bytesToBase64(tx.serialize({ requireAllSignatures: false }));
    await expect(solanaKeypairSigner(Keypair.generate()).signTransaction(unsigned)).rejects.toThrow('does not require a signature');
  });
});
