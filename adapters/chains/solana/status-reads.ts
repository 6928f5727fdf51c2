// The status reads of every Solana transfer followed on one connection, shared. Under load many
// payments' jobs check their transactions at once, each with the same two reads: the finalized
// epoch (block height, for the blockhash deadline) and the signature's status. One
// `getSignatureStatuses` answers up to 256 signatures, and the finalized epoch is the same for all
// of them, so concurrent checks share calls instead of each paying two round trips of the node's
// latency and two of its rate limit.
import type { SignatureStatus } from '@solana/web3.js';
import type { SolanaRpc } from './rpc.ts';

/** The node's limit for one `getSignatureStatuses`. */
export const MAX_SIGNATURES_PER_CALL = 256;
/** Calls of each kind in flight at once per connection; more askers wait and go together in the next. */
const MAX_STATUS_CALLS_IN_FLIGHT = 2;

export interface StatusRead {
  /** The slot of the node that answered (the whole batch's context). */
  slot: number;
  status: SignatureStatus | null;
}

type EpochInfo = { absoluteSlot: number; blockHeight?: number };

interface Waiting {
  signature: string;
  resolve(read: StatusRead): void;
  reject(error: unknown): void;
}

export class SharedStatusReads {
  private waiting: Waiting[] = [];
  private inFlight = 0;
  private pumpQueued = false;
  private epoch: Promise<EpochInfo> | null = null;

  private readonly connection: SolanaRpc;

  constructor(connection: SolanaRpc) {
    this.connection = connection;
  }

  /**
   * The finalized epoch. A read already in flight is shared: it started before this caller asked,
   * so it is no newer than one of its own would be, and an older finalized height can only make a
   * blockhash look valid longer (never expired early). Nothing is kept once it is answered.
   */
  finalizedEpoch(): Promise<EpochInfo> {
    if (this.epoch) return this.epoch;
    const read = this.connection.getEpochInfo('finalized').finally(() => {
      if (this.epoch === read) this.epoch = null;
    });
    this.epoch = read;
    return read;
  }

  /**
   * The status of `signature` with the transaction history searched, from a call sent after this
   * one was asked for (never one already in flight: a caller that read the finalized height
   * first relies on the status being read after it).
   */
  status(signature: string): Promise<StatusRead> {
    return new Promise<StatusRead>((resolve, reject) => {
      this.waiting.push({ signature, resolve, reject });
      // Askers of the same turn go in one call.
      if (!this.pumpQueued) {
        this.pumpQueued = true;
        queueMicrotask(() => {
          this.pumpQueued = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.inFlight < MAX_STATUS_CALLS_IN_FLIGHT && this.waiting.length > 0) {
      const batch: Waiting[] = [];
      const signatures = new Set<string>();
      while (this.waiting.length > 0 && (signatures.size < MAX_SIGNATURES_PER_CALL || signatures.has(this.waiting[0]!.signature))) {
        const next = this.waiting.shift()!;
        signatures.add(next.signature);
        batch.push(next);
      }
      this.inFlight++;
      void this.send([...signatures], batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async send(signatures: string[], batch: Waiting[]): Promise<void> {
    try {
      const { context, value } = await this.connection.getSignatureStatuses(signatures, { searchTransactionHistory: true });
      const bySignature = new Map(signatures.map((s, i) => [s, value[i] ?? null]));
      for (const w of batch) w.resolve({ slot: context.slot, status: bySignature.get(w.signature) ?? null });
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }
}

const shared = new WeakMap<SolanaRpc, SharedStatusReads>();

/** The shared reads of `connection` (one per connection object, for as long as it lives). */
export function statusReadsOf(connection: SolanaRpc): SharedStatusReads {
  let reads = shared.get(connection);
  if (!reads) {
    reads = new SharedStatusReads(connection);
    shared.set(connection, reads);
  }
  return reads;
}
