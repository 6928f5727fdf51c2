import { createHash } from 'node:crypto';
import { Keypair } from '@solana/web3.js';

/**
 * A keypair derived from a fixed label, so sandbox addresses (mint, faucet, fee payer, test wallets) are
 * the same on every run and can be written into configuration and docs. Never use outside the sandbox:
 * anyone can derive these keys.
 */
export function sandboxKeypair(label: string): Keypair {
  const seed = createHash('sha256').update(`merchant-payments-service/sandbox/solana/${label}`).digest();
  return Keypair.fromSeed(seed);
}
