import { LiteSVM } from 'litesvm';
import { ComputeBudgetProgram, LAMPORTS_PER_SOL, PublicKey, SystemProgram, Transaction, VersionedTransaction, type Keypair } from '@solana/web3.js';
import {
  MINT_SIZE,
  MintLayout,
  TOKEN_PROGRAM_ID,
  createAssociatedTokenAccountIdempotentInstruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
  unpackAccount,
} from '@solana/spl-token';
import { advanceBlocks, expireBlockhashes, issueBlockhash, startBlockClock } from './clock.ts';
import { createSandboxConnection, type SandboxConnection } from './connection.ts';
import type { SandboxLedger } from './ledger.ts';
import { sandboxKeypair } from './keys.ts';

/** An entry for the service's asset registry. */
export interface SandboxAsset {
  /** CAIP-19: `solana:<ref>/token:<mint>`. */
  caip19: string;
  caip2: string;
  mint: string;
  symbol: string;
  name: string;
  decimals: number;
  flows: ['spl'];
}

export interface SolanaSandbox {
  caip2: string;
  assets: SandboxAsset[];
  /** The USDC-like mint (classic Token program, 6 decimals). */
  mint: PublicKey;
  mintAuthority: Keypair;
  /** The service's fee payer, funded with SOL: give it to the gateway as its Solana key. */
  feePayer: Keypair;
  connection: SandboxConnection;
  /** Adds SOL lamports (mint null) or mints SPL base units into the owner's associated token account. */
  fund(ownerBase58: string, mintOrNull: string | null, value: bigint): void;
  /** Lamports (mint null) or the SPL balance of the owner's associated token account (0 if absent). */
  balance(ownerBase58: string, mintOrNull: string | null): bigint;
  /** Issues a new blockhash and moves block height past the validity window of every older one. */
  expireBlockhash(): void;
  /** `n` slots and blocks pass (a new blockhash with them), as they would with the clock running. */
  advanceBlocks(n: number): void;
  /** Opens the owner's (empty) associated token account of the mint, paid by the faucet; idempotent. */
  openTokenAccount(ownerBase58: string): void;
  /** What `getRecentPrioritizationFees` answers from now on (micro-lamports per CU, newest first). */
  setPriorityFees(fees: number[]): void;
  /** Stops the block clock, if one runs; safe to call twice. */
  close(): void;
  /** Deterministic keypair for a label, e.g. a test buyer or merchant. */
  keypair(label: string): Keypair;
}

export interface SolanaSandboxOptions {
  /** CAIP-2 reference (default `sandbox`): `[-_a-zA-Z0-9]{1,32}`. */
  reference?: string;
  /** SOL given to the fee payer at start (default 100). */
  feePayerSol?: bigint;
  /**
   * A slot and a block every this many ms, each with a new blockhash; commitment then follows depth
   * (confirmed a slot after landing, finalized 32 slots after). Default none: the cluster moves only
   * when a transaction lands, and every landed transaction is final at once.
   */
  blockTimeMs?: number;
}

const DECIMALS = 6;

/**
 * Starts an in-process Solana (LiteSVM with the SPL programs) holding a USDC-like mint.
 *
 * Why deterministic: mint, mint authority and fee payer come from fixed seeds, so the asset's CAIP-19 id
 * is the same on every run and can sit in the default configuration and in test expectations.
 */
export function createSolanaSandbox(options: SolanaSandboxOptions = {}): SolanaSandbox {
  const reference = options.reference ?? 'sandbox';
  if (!/^[-_a-zA-Z0-9]{1,32}$/.test(reference)) throw new Error(`invalid CAIP-2 reference: ${reference}`);
  const caip2 = `solana:${reference}`;
  // Blockhash validity is the ledger's (clock.ts): LiteSVM would accept only its latest blockhash.
  const svm = new LiteSVM().withBlockhashCheck(false);
  const ledger: SandboxLedger = {
    svm,
    slot: 1,
    blockHeight: 1,
    blockhashIssuedAt: 1,
    blockhashes: new Map(),
    clockRunning: false,
    landed: new Map(),
    byAddress: new Map(),
  };
  svm.warpToSlot(1n);
  issueBlockhash(ledger);
  const connection = createSandboxConnection(ledger);

  const mintKey = sandboxKeypair('usdc-mint');
  const mintAuthority = sandboxKeypair('usdc-mint-authority');
  const feePayer = sandboxKeypair('service-fee-payer');
  const faucet = sandboxKeypair('faucet');
  const mint = mintKey.publicKey;

  const addLamports = (owner: PublicKey, lamports: bigint): void => {
    // Set the account directly: LiteSVM's airdrop is a transaction, and two equal airdrops in one
    // blockhash would be the same transaction (AlreadyProcessed).
    const current = svm.getAccount(owner);
    const base = current ?? { lamports: 0, data: new Uint8Array(), owner: SystemProgram.programId, executable: false, rentEpoch: 0 };
    svm.setAccount(owner, { ...base, lamports: base.lamports + Number(lamports) });
  };

  const mintData = Buffer.alloc(MINT_SIZE);
  MintLayout.encode(
    {
      mintAuthorityOption: 1,
      mintAuthority: mintAuthority.publicKey,
      supply: 0n,
      decimals: DECIMALS,
      isInitialized: true,
      freezeAuthorityOption: 0,
      freezeAuthority: PublicKey.default,
    },
    mintData,
  );
  svm.setAccount(mint, {
    lamports: Number(svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE))),
    data: mintData,
    owner: TOKEN_PROGRAM_ID,
    executable: false,
    rentEpoch: 0,
  });
  addLamports(feePayer.publicKey, (options.feePayerSol ?? 100n) * BigInt(LAMPORTS_PER_SOL));
  addLamports(faucet.publicKey, 1_000n * BigInt(LAMPORTS_PER_SOL));

  const stopClock = options.blockTimeMs === undefined ? undefined : startBlockClock(ledger, options.blockTimeMs);

  let fundings = 0;
  const mintTo = (owner: PublicKey, value: bigint): void => {
    const ata = getAssociatedTokenAddressSync(mint, owner, true);
    fundings += 1;
    const tx = new Transaction({ feePayer: faucet.publicKey, recentBlockhash: svm.latestBlockhash() }).add(
      // A distinct price per funding keeps equal fundings from being the same transaction.
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: fundings }),
      createAssociatedTokenAccountIdempotentInstruction(faucet.publicKey, ata, owner, mint),
    );
    if (value > 0n) tx.add(createMintToInstruction(mint, ata, mintAuthority.publicKey, value));
    tx.sign(...(value > 0n ? [faucet, mintAuthority] : [faucet]));
    connection.sendVersioned(VersionedTransaction.deserialize(tx.serialize()), false);
  };

  const asMint = (mintOrNull: string | null): PublicKey | null => {
    if (mintOrNull === null) return null;
    const key = new PublicKey(mintOrNull);
    if (!key.equals(mint)) throw new Error(`unknown sandbox mint ${mintOrNull}`);
    return key;
  };

  return {
    caip2,
    assets: [{ caip19: `${caip2}/token:${mint.toBase58()}`, caip2, mint: mint.toBase58(), symbol: 'USDC', name: 'USD Coin (sandbox)', decimals: DECIMALS, flows: ['spl'] }],
    mint,
    mintAuthority,
    feePayer,
    connection,
    fund(ownerBase58, mintOrNull, value) {
      if (value <= 0n) throw new RangeError('value must be positive');
      const owner = new PublicKey(ownerBase58);
      const token = asMint(mintOrNull);
      if (token) mintTo(owner, value);
      else addLamports(owner, value);
    },
    balance(ownerBase58, mintOrNull) {
      const owner = new PublicKey(ownerBase58);
      const token = asMint(mintOrNull);
      if (!token) return svm.getBalance(owner) ?? 0n;
      const ata = getAssociatedTokenAddressSync(token, owner, true);
      const account = svm.getAccount(ata);
      if (!account || account.lamports === 0) return 0n;
      return unpackAccount(ata, { ...account, data: Buffer.from(account.data) }).amount;
    },
    expireBlockhash: () => expireBlockhashes(ledger),
    advanceBlocks: (n) => advanceBlocks(ledger, n),
    openTokenAccount: (ownerBase58) => mintTo(new PublicKey(ownerBase58), 0n),
    setPriorityFees: (fees) => {
      ledger.priorityFees = [...fees];
    },
    close: () => stopClock?.(),
    keypair: sandboxKeypair,
  };
}
