import { Transaction, VersionedTransaction, type Keypair } from '@solana/web3.js';
import { base64ToBytes, bytesToBase64 } from '../util/base64.ts';
import type { SolanaSigner } from './types.ts';

/** Any wallet exposing `signTransaction` (Solana wallet-adapter, Phantom-style providers). */
export interface SolanaWalletLike {
  publicKey: { toBase58(): string } | null;
  signTransaction<T extends Transaction | VersionedTransaction>(transaction: T): Promise<T>;
}

/**
 * Signs with a local `Keypair`. The service built the transaction as its fee payer and signs it
 * last, at confirm (its slot stays empty here); we add our signature and hand back the whole
 * transaction, never broadcasting it (it could not land without the service's signature anyway).
 */
export function solanaKeypairSigner(keypair: Keypair): SolanaSigner {
  const publicKey = keypair.publicKey.toBase58();
  return {
    async accounts(chainRefs) {
      return chainRefs.map((ref) => `solana:${ref}:${publicKey}`);
    },
    async signTransaction(transactionBase64) {
      const transaction = VersionedTransaction.deserialize(base64ToBytes(transactionBase64));
      requireSigner(transaction, publicKey);
      transaction.sign([keypair]);
      return bytesToBase64(transaction.serialize());
    },
  };
}

/**
 * Signs through an external wallet. Legacy messages are handed over as `Transaction` (which
 * every wallet understands) and v0 messages as `VersionedTransaction`. A wallet with no
 * connected key advertises no accounts, so it receives no Solana options.
 */
export function solanaWalletSigner(wallet: SolanaWalletLike): SolanaSigner {
  return {
    async accounts(chainRefs) {
      const key = wallet.publicKey?.toBase58();
      return key === undefined ? [] : chainRefs.map((ref) => `solana:${ref}:${key}`);
    },
    async signTransaction(transactionBase64) {
      const key = wallet.publicKey?.toBase58();
      if (key === undefined) throw new Error('the Solana wallet is not connected');
      const bytes = base64ToBytes(transactionBase64);
      const versioned = VersionedTransaction.deserialize(bytes);
      requireSigner(versioned, key);
      if (versioned.version === 'legacy') {
        const signed = await wallet.signTransaction(Transaction.from(bytes));
        return bytesToBase64(signed.serialize({ requireAllSignatures: false, verifySignatures: true }));
      }
      const signed = await wallet.signTransaction(versioned);
      return bytesToBase64(signed.serialize());
    },
  };
}

/** Refuses a transaction this key is not asked to sign (it would be a wrong-account option). */
function requireSigner(transaction: VersionedTransaction, publicKey: string): void {
  const { numRequiredSignatures } = transaction.message.header;
  const signers = transaction.message.staticAccountKeys.slice(0, numRequiredSignatures).map((key) => key.toBase58());
  if (!signers.includes(publicKey)) throw new Error(`transaction does not require a signature from ${publicKey}`);
}
