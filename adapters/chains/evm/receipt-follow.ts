// One follow loop per EVM provider (a chain in one process), as Solana's (solana/follow.ts): every
// relayer transaction the settlement jobs wait on is read in the same window, once per
// transaction and not once per payment (a batch of 16 payments has one receipt), with one head
// read and one read per block the receipts are in. A job waits on the loop's answer for its
// transaction instead of coming back every second to read the receipt, its block and the head
// again (issue 32: about 7 head reads and 2 receipt reads per payment). The loop only reads: what
// a receipt proves is still judged by the payment's own step (relayer-flow.ts), with the same rule
// as a single read (receipts.ts getConfirmations).
import type { Provider, TransactionReceipt } from 'ethers';
import { minedAt, type ConfirmationState } from './receipts.ts';

/**
 * How long a job waits on the loop before running again later: a few blocks on the chains served
 * (Base and the sandbox: 2 s), and well inside the worker's shutdown grace (30 s), which waits for
 * running jobs.
 */
export const DEFAULT_EVM_FOLLOW_MS = 10_000;
/** A quarter of a 2 s block: a transaction is looked at again soon after a block could show it. */
const DEFAULT_WINDOW_MS = 500;

interface Waiter {
  confirmations: number;
  until: number;
  resolve(state: ConfirmationState): void;
}

export interface ReceiptFollowOptions {
  windowMs?: number;
  now?: () => number;
}

export class ReceiptFollower {
  /** The transactions followed, each with the jobs waiting on it and whether the node was asked if it holds it. */
  private readonly followed = new Map<string, { waiters: Set<Waiter>; askedHeld: boolean }>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly provider: Provider;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(provider: Provider, options: ReceiptFollowOptions = {}) {
    this.provider = provider;
    this.windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    this.now = options.now ?? Date.now;
  }

  /** Transactions followed now (metrics, tests). */
  get size(): number {
    return this.followed.size;
  }

  /**
   * Answers once a window reads `txId` mined in a canonical block `confirmations` deep (the
   * inclusion block counted), or the last reading (not mined, RPC error, or mined but shallower)
   * once `forMs` has passed.
   */
  follow(txId: string, confirmations: number, forMs: number): Promise<ConfirmationState> {
    return new Promise<ConfirmationState>((resolve) => {
      const key = txId.toLowerCase();
      const entry = this.followed.get(key) ?? { waiters: new Set<Waiter>(), askedHeld: false };
      entry.waiters.add({ confirmations: Math.max(1, confirmations), until: this.now() + forMs, resolve });
      this.followed.set(key, entry);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.timer || this.followed.size === 0) return;
    this.timer = setTimeout(() => {
      void this.window().finally(() => {
        this.timer = null;
        this.schedule();
      });
    }, this.windowMs);
  }

  /**
   * One window: each followed transaction's receipt, then the head and each receipt's block, all
   * read at once. A transaction not mined in its first window is asked for once: one the node does
   * not hold (recorded but never sent: a crash, a refused broadcast) is answered at once, so its
   * step sends the recorded bytes again instead of waiting out its follow.
   */
  private async window(): Promise<void> {
    const txIds = [...this.followed.keys()];
    const receipts = await Promise.all(
      txIds.map((id) =>
        this.provider.getTransactionReceipt(id).then(
          (r): TransactionReceipt | null | 'error' => r,
          () => 'error' as const,
        ),
      ),
    );
    const heights = [...new Set(receipts.flatMap((r) => (r && r !== 'error' ? [r.blockNumber] : [])))];
    const unasked = txIds.filter((id, i) => receipts[i] === null && !this.followed.get(id)!.askedHeld);
    const [head, blocks, held] = await Promise.all([
      heights.length ? this.provider.getBlockNumber().catch(() => null) : Promise.resolve(null),
      Promise.all(heights.map((n) => this.provider.getBlock(n).catch(() => 'error' as const))),
      Promise.all(
        unasked.map((id) =>
          this.provider.getTransaction(id).then(
            (t) => t !== null,
            () => true,
          ),
        ),
      ),
    ]);
    const hashAt = new Map(heights.map((n, i) => [n, blocks[i]]));
    const unheld = new Set(unasked.filter((_, i) => !held[i]));
    for (const id of unasked) this.followed.get(id)!.askedHeld = true;
    const now = this.now();
    txIds.forEach((id, i) => {
      const state = reading(receipts[i]!, head, hashAt);
      const { waiters } = this.followed.get(id)!;
      for (const w of waiters) {
        if ((state.status === 'mined' && state.confirmations >= w.confirmations) || unheld.has(id) || now >= w.until) {
          waiters.delete(w);
          w.resolve(state);
        }
      }
      if (!waiters.size) this.followed.delete(id);
    });
  }
}

/** One transaction's reading in a window, by getConfirmations' rule: a receipt whose block is not the canonical one at its height is no evidence. */
function reading(
  receipt: TransactionReceipt | null | 'error',
  head: number | null,
  blocks: Map<number, Awaited<ReturnType<Provider['getBlock']>> | 'error' | undefined>,
): ConfirmationState {
  if (receipt === 'error') return { status: 'pending', reason: 'rpc_error' };
  if (!receipt) return { status: 'pending', reason: 'not_mined' };
  const block = blocks.get(receipt.blockNumber);
  if (block === 'error' || head === null) return { status: 'pending', reason: 'rpc_error' };
  if (block?.hash !== receipt.blockHash) return { status: 'pending', reason: 'not_mined' };
  return minedAt(receipt, head);
}

const followers = new WeakMap<Provider, ReceiptFollower>();

/** The follow loop of `provider` (one per provider object, for as long as it lives). */
export function receiptFollowerOf(provider: Provider): ReceiptFollower {
  let follower = followers.get(provider);
  if (!follower) {
    follower = new ReceiptFollower(provider);
    followers.set(provider, follower);
  }
  return follower;
}
