// One follow loop per Solana connection (a cluster in one process): every transaction the
// settlement jobs sent and wait on is checked in the same window, so N pending payments cost
// the same few status calls a window (status-reads.ts puts the checks of one turn in one
// `getSignatureStatuses`), not N jobs each polling on its own schedule. A job waits on the
// loop's answer for its transaction instead of coming back every second to ask again.
import type { SolanaCommitment, SolanaRpc } from './rpc.ts';
import { checkTransaction, type TransactionCheck } from './status.ts';

/**
 * How long a job waits on the loop before running again later: a few slots past the ~1 s a
 * transaction takes to reach `confirmed` (longer on a congested cluster), and well inside the
 * worker's shutdown grace (WORKER_SHUTDOWN_TIMEOUT_S, 30 s), which waits for running jobs.
 */
export const DEFAULT_FOLLOW_MS = 10_000;
/** About a Solana slot: a transaction is looked at again as soon as a new slot could show it. */
const DEFAULT_WINDOW_MS = 400;
/** Re-broadcast of a transaction not seen yet (issue 29 item 5: every ~1 s until seen or expired). */
const DEFAULT_RESEND_MS = 1000;

export interface FollowRequest {
  signature: string;
  /** The transaction's last valid block height: unseen past it (read by a fresh enough node), it failed. */
  lastValidBlockHeight: number;
  commitment: SolanaCommitment;
  /**
   * Simulates the same signed bytes and sends them only if the simulation passes (`maxRetries: 0`).
   * Called while the transaction is not seen, at most every `resendMs`; it never throws.
   */
  resend(): Promise<void>;
  /** How long to follow before answering the last check undecided (the job then runs again later). */
  forMs: number;
}

interface Followed extends FollowRequest {
  until: number;
  lastSentAt: number;
  sending: boolean;
  resolve(check: TransactionCheck): void;
}

export interface FollowOptions {
  windowMs?: number;
  resendMs?: number;
  now?: () => number;
}

export class SignatureFollower {
  private readonly followed = new Set<Followed>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly connection: SolanaRpc;
  private readonly windowMs: number;
  private readonly resendMs: number;
  private readonly now: () => number;

  constructor(connection: SolanaRpc, options: FollowOptions = {}) {
    this.connection = connection;
    this.windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
    this.resendMs = options.resendMs ?? DEFAULT_RESEND_MS;
    this.now = options.now ?? Date.now;
  }

  /** Transactions followed now (metrics, tests). */
  get size(): number {
    return this.followed.size;
  }

  /**
   * Follows a transaction the caller has just sent: answers as soon as a window's check decides it
   * (confirmed at the commitment, or failed by checkTransaction's rules), or with the last check
   * (pending or unknown) once `forMs` has passed. The rules are checkTransaction's: nothing is
   * decided here that a single check would not decide.
   */
  follow(request: FollowRequest): Promise<TransactionCheck> {
    return new Promise<TransactionCheck>((resolve) => {
      const now = this.now();
      this.followed.add({ ...request, until: now + request.forMs, lastSentAt: now, sending: false, resolve });
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

  /** One window: every followed transaction checked at once (shared calls), each answered or re-sent. */
  private async window(): Promise<void> {
    const all = [...this.followed];
    const checks = all.map((f) => checkTransaction(this.connection, f.signature, { commitment: f.commitment, lastValidBlockHeight: f.lastValidBlockHeight }));
    const answers = await Promise.all(checks);
    const now = this.now();
    all.forEach((f, i) => {
      const check = answers[i]!;
      if (check.status === 'confirmed' || check.status === 'failed' || now >= f.until) {
        this.followed.delete(f);
        f.resolve(check);
        return;
      }
      // Not seen yet and its blockhash still valid: the same bytes again, simulated first.
      if (check.status === 'pending' && !check.seen && !f.sending && now - f.lastSentAt >= this.resendMs) {
        f.sending = true;
        f.lastSentAt = now;
        void f
          .resend()
          .catch(() => undefined)
          .finally(() => {
            f.sending = false;
          });
      }
    });
  }
}

const followers = new WeakMap<SolanaRpc, SignatureFollower>();

/** The follow loop of `connection` (one per connection object, for as long as it lives). */
export function followerOf(connection: SolanaRpc): SignatureFollower {
  let follower = followers.get(connection);
  if (!follower) {
    follower = new SignatureFollower(connection);
    followers.set(connection, follower);
  }
  return follower;
}
