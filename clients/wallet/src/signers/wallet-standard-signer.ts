import { base64ToBytes, bytesToBase64 } from '../util/base64.ts';
import { SOLANA_DEVNET, SOLANA_MAINNET } from './chain-ids.ts';
import type { SolanaSigner } from './types.ts';

/** A Wallet Standard account as wallets hand it out (`@wallet-standard/base`'s WalletAccount). */
export interface StandardAccount {
  address: string;
  publicKey: Uint8Array;
  chains?: readonly string[];
}

/** The `solana:signTransaction` feature of a Wallet Standard wallet (raw bytes in, raw bytes out). */
export interface StandardSolanaWallet {
  features: Record<string, unknown>;
}

type SignTransactionFeature = {
  signTransaction(...inputs: { account: StandardAccount; transaction: Uint8Array; chain?: string }[]): Promise<{ signedTransaction: Uint8Array }[]>;
};

const SOLANA_TESTNET = '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z';
const STANDARD_CHAINS: Record<string, string> = {
  [SOLANA_MAINNET]: 'solana:mainnet',
  [SOLANA_DEVNET]: 'solana:devnet',
  [SOLANA_TESTNET]: 'solana:testnet',
};

/**
 * The Wallet Standard's chain name (`solana:mainnet`, `solana:devnet`, `solana:testnet`) of a
 * CAIP-2 Solana id; `other` for a cluster the standard has no name for (a local validator or
 * the sandbox: `solana:localnet`), undefined when even that is not given.
 */
export function standardSolanaChain(caip2: string, other?: string): string | undefined {
  const reference = caip2.startsWith('solana:') ? caip2.slice('solana:'.length) : caip2;
  return STANDARD_CHAINS[reference] ?? other;
}

/**
 * Signs through a Wallet Standard wallet (Phantom, Solflare, Backpack in a browser) with
 * `solana:signTransaction` on raw bytes: no `@solana/web3.js` in the page. The wallet must hand
 * back the very message it was given with its signature in its own slot: a wallet that changed
 * the transaction (added an instruction, swapped the fee payer, bumped a priority fee) is refused
 * before anything reaches the service, since the buyer approved what the page showed, not that.
 */
export function walletStandardSolanaSigner(wallet: StandardSolanaWallet, account: StandardAccount, options: { otherChain?: string } = {}): SolanaSigner {
  return {
    async accounts(chainRefs) {
      return chainRefs.map((ref) => `solana:${ref}:${account.address}`);
    },
    async signTransaction(transactionBase64, chainId) {
      const feature = wallet.features['solana:signTransaction'] as SignTransactionFeature | undefined;
      if (!feature) throw new Error('this wallet cannot sign Solana transactions (no solana:signTransaction)');
      const original = base64ToBytes(transactionBase64);
      const sent = parseWireTransaction(original);
      const slot = sent.signers.findIndex((key) => sameBytes(key, account.publicKey));
      if (slot < 0) throw new Error(`transaction does not require a signature from ${account.address}`);
      const chain = chainId === undefined ? undefined : standardSolanaChain(chainId, options.otherChain);
      const [output] = await feature.signTransaction({ account, transaction: original, ...(chain ? { chain } : {}) });
      if (!output) throw new Error('the wallet returned no signed transaction');
      const signed = parseWireTransaction(output.signedTransaction);
      if (!sameBytes(signed.message, sent.message)) throw new Error('the wallet changed the transaction it was asked to sign: refused');
      if (signed.signatures[slot]!.every((b) => b === 0)) throw new Error('the wallet returned the transaction without its signature');
      return bytesToBase64(output.signedTransaction);
    },
  };
}

interface WireTransaction {
  signatures: Uint8Array[];
  message: Uint8Array;
  /** The accounts that must sign, in signature-slot order. */
  signers: Uint8Array[];
}

/**
 * A serialized Solana transaction (legacy or v0): compact-u16 signature count, the 64-byte
 * signatures, then the message, whose header's first byte counts the required signers and whose
 * static account keys list them first.
 */
function parseWireTransaction(bytes: Uint8Array): WireTransaction {
  const [count, afterCount] = compactU16(bytes, 0);
  const messageStart = afterCount + count * 64;
  if (count === 0 || messageStart >= bytes.length) throw new Error('not a Solana transaction');
  const signatures = Array.from({ length: count }, (_, i) => bytes.subarray(afterCount + i * 64, afterCount + (i + 1) * 64));
  const message = bytes.subarray(messageStart);
  const versioned = (message[0]! & 0x80) !== 0;
  const header = versioned ? 1 : 0;
  const required = message[header]!;
  const [keyCount, keysStart] = compactU16(message, header + 3);
  if (required !== count || keyCount < required || keysStart + keyCount * 32 > message.length) throw new Error('not a Solana transaction');
  const signers = Array.from({ length: required }, (_, i) => message.subarray(keysStart + i * 32, keysStart + (i + 1) * 32));
  return { signatures, message, signers };
}

function compactU16(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 3; i += 1) {
    const byte = bytes[offset + i];
    if (byte === undefined) throw new Error('not a Solana transaction');
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return [value, offset + i + 1];
  }
  throw new Error('not a Solana transaction');
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
