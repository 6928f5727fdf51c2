// The sandbox cluster's time: slots, block height and blockhashes, which LiteSVM does not keep.
// Without a block time the cluster moves only when something lands (a slot per transaction) or
// when a test expires the blockhash; with one, a slot and a block pass every tick, each with a
// new blockhash, and commitment follows depth as on a real cluster.
import type { SandboxLedger } from './ledger.ts';

/** Solana's blockhash validity window (MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALIDITY_BLOCKS = 150;

/** Slots until a landed transaction is rooted (`finalized`) on a real cluster: 31 confirmations and one. */
export const FINALIZED_DEPTH = 32;

/** Blockhashes kept beyond their validity; older entries are only kept for lookups that will fail anyway. */
const KEEP_BLOCKHASHES = 1_000;

/** Registers LiteSVM's current blockhash as issued at the current block height. */
export function issueBlockhash(ledger: SandboxLedger): void {
  ledger.blockhashIssuedAt = ledger.blockHeight;
  ledger.blockhashes.set(ledger.svm.latestBlockhash(), ledger.blockHeight + BLOCKHASH_VALIDITY_BLOCKS);
  if (ledger.blockhashes.size > KEEP_BLOCKHASHES) {
    const oldest = ledger.blockhashes.keys().next().value;
    if (oldest !== undefined) ledger.blockhashes.delete(oldest);
  }
}

/**
 * Whether a transaction built on `blockhash` may still land: issued by this cluster and its
 * window not passed. Why not LiteSVM's own check: it knows only the latest blockhash, while a
 * real cluster accepts any of the last 150 blocks' (a wallet signs over several of them).
 */
export function blockhashValid(ledger: SandboxLedger, blockhash: string): boolean {
  const lastValid = ledger.blockhashes.get(blockhash);
  return lastValid !== undefined && ledger.blockHeight <= lastValid;
}

/** `n` slots and blocks pass, the last with a new blockhash. */
export function advanceBlocks(ledger: SandboxLedger, n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`blocks to advance must be a positive integer, got ${n}`);
  ledger.slot += n;
  ledger.blockHeight += n;
  ledger.svm.warpToSlot(BigInt(ledger.slot));
  ledger.svm.expireBlockhash();
  issueBlockhash(ledger);
}

/** Every blockhash issued so far becomes too old: the cluster moves one block past the newest one's window. */
export function expireBlockhashes(ledger: SandboxLedger): void {
  const newest = Math.max(ledger.blockHeight, ...ledger.blockhashes.values());
  advanceBlocks(ledger, newest + 1 - ledger.blockHeight);
}

/** Starts the block clock: a block every `blockTimeMs`; commitment follows depth from now on. Answers its stop. */
export function startBlockClock(ledger: SandboxLedger, blockTimeMs: number): () => void {
  if (!Number.isInteger(blockTimeMs) || blockTimeMs < 1) throw new RangeError(`block time must be a positive integer of ms, got ${blockTimeMs}`);
  ledger.clockRunning = true;
  const timer = setInterval(() => advanceBlocks(ledger, 1), blockTimeMs);
  timer.unref();
  return () => clearInterval(timer);
}

export type Commitment = 'processed' | 'confirmed' | 'finalized';

/**
 * The commitment a transaction landed at `slot` has reached. Without a clock every landed
 * transaction is final at once (the sandbox's instant mode); with one, `confirmed` a slot later
 * and `finalized` 32 slots later, as a cluster's votes would make it.
 */
export function commitmentOf(ledger: SandboxLedger, slot: number): { status: Commitment; confirmations: number | null } {
  if (!ledger.clockRunning) return { status: 'finalized', confirmations: null };
  const depth = ledger.slot - slot;
  if (depth >= FINALIZED_DEPTH) return { status: 'finalized', confirmations: null };
  return { status: depth >= 1 ? 'confirmed' : 'processed', confirmations: depth };
}

/**
 * The slot (or block height) a read at `commitment` answers at, `tip` being the newest. No
 * commitment means `finalized`, as on a real node (web3.js sends its connection's default).
 */
export function atCommitment(ledger: SandboxLedger, tip: number, commitment: string | undefined): number {
  if (!ledger.clockRunning || commitment === 'processed') return tip;
  if (commitment === 'confirmed') return Math.max(0, tip - 1);
  return Math.max(0, tip - FINALIZED_DEPTH);
}
