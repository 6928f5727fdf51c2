import { Keypair, PublicKey, SystemProgram, Transaction, VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from '../util/base64.ts';
import { SOLANA_DEVNET, SOLANA_MAINNET } from './chain-ids.ts';
import { standardSolanaChain, walletStandardSolanaSigner, type StandardAccount } from './wallet-standard-signer.ts';

/**
 * The Wallet Standard signer against a wallet that holds a real key: it signs raw bytes, and a
 * wallet that hands back a different transaction (or none of its signature) is refused.
 */
const feePayer = Keypair.generate();
const buyer = Keypair.generate();
const account: StandardAccount = { address: buyer.publicKey.toBase58(), publicKey: buyer.publicKey.toBytes(), chains: ['solana:devnet'] };

/** A legacy transaction as the service builds it: its fee payer first, the buyer signing second. */
function serviceTransaction(): string {
  const tx = new Transaction({ feePayer: feePayer.publicKey, recentBlockhash: new PublicKey(Keypair.generate().publicKey).toBase58() });
  tx.add(SystemProgram.transfer({ fromPubkey: buyer.publicKey, toPubkey: feePayer.publicKey, lamports: 1 }));
  return bytesToBase64(tx.serialize({ requireAllSignatures: false, verifySignatures: false }));
}

function standardWallet(answer: (bytes: Uint8Array) => Uint8Array) {
  const seen: { chain?: string }[] = [];
  const wallet = {
    features: {
      'solana:signTransaction': {
        async signTransaction(...inputs: { account: StandardAccount; transaction: Uint8Array; chain?: string }[]) {
          seen.push(...inputs.map((i) => ({ ...(i.chain ? { chain: i.chain } : {}) })));
          return inputs.map((i) => ({ signedTransaction: answer(i.transaction) }));
        },
      },
    },
  };
  return { wallet, seen };
}

const honest = (bytes: Uint8Array) => {
  const tx = VersionedTransaction.deserialize(bytes);
  tx.sign([buyer]);
  return tx.serialize();
};

describe('Wallet Standard Solana signer', () => {
  it('maps CAIP-2 ids to the standard chain names', () => {
    expect(standardSolanaChain(`solana:${SOLANA_MAINNET}`)).toBe('solana:mainnet');
    expect(standardSolanaChain(`solana:${SOLANA_DEVNET}`)).toBe('solana:devnet');
    expect(standardSolanaChain('solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z')).toBe('solana:testnet');
    expect(standardSolanaChain('solana:sandboxref', 'solana:localnet')).toBe('solana:localnet');
    expect(standardSolanaChain('solana:sandboxref')).toBeUndefined();
  });

  it('signs raw bytes, in the buyer slot, on the standard chain name', async () => {
    const { wallet, seen } = standardWallet(honest);
    const signer = walletStandardSolanaSigner(wallet, account);
    expect(await signer.accounts([SOLANA_DEVNET])).toEqual([`solana:${SOLANA_DEVNET}:${account.address}`]);
    const signed = VersionedTransaction.deserialize(base64ToBytes(await signer.signTransaction(serviceTransaction(), `solana:${SOLANA_DEVNET}`)));
    expect(seen).toEqual([{ chain: 'solana:devnet' }]);
    expect(signed.signatures[1]!.some((b) => b !== 0)).toBe(true);
    expect(signed.signatures[0]!.every((b) => b === 0)).toBe(true);
  });

  it('refuses a transaction the wallet changed', async () => {
    const { wallet } = standardWallet((bytes) => {
      const tx = Transaction.from(bytes);
      tx.add(SystemProgram.transfer({ fromPubkey: buyer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 5 }));
      tx.partialSign(buyer);
      return tx.serialize({ requireAllSignatures: false });
    });
    await expect(walletStandardSolanaSigner(wallet, account).signTransaction(serviceTransaction())).rejects.toThrow('changed the transaction');
  });

  it('refuses an answer without the buyer signature, and a transaction not asking the account to sign', async () => {
    const { wallet } = standardWallet((bytes) => bytes);
    await expect(walletStandardSolanaSigner(wallet, account).signTransaction(serviceTransaction())).rejects.toThrow('without its signature');
    const stranger = Keypair.generate();
    const other = { address: stranger.publicKey.toBase58(), publicKey: stranger.publicKey.toBytes() };
    await expect(walletStandardSolanaSigner(wallet, other).signTransaction(serviceTransaction())).rejects.toThrow('does not require a signature');
    await expect(walletStandardSolanaSigner({ features: {} }, account).signTransaction(serviceTransaction())).rejects.toThrow('no solana:signTransaction');
  });
});
