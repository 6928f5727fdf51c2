import { createHash } from 'node:crypto';
import {
  SendTransactionError,
  VersionedTransaction,
  type AccountInfo,
  type ConfirmedSignatureInfo,
  type PublicKey,
  type SignatureStatus,
  type TransactionError,
} from '@solana/web3.js';
import type { SolanaRpc } from '../../chains/solana/rpc.ts';
import { base58Encode } from '../../chains/solana/base58.ts';
import { BLOCKHASH_VALIDITY_BLOCKS, atCommitment, blockhashValid, commitmentOf } from './clock.ts';
import { describeFailure } from './errors.ts';
import type { Landed, SandboxLedger } from './ledger.ts';
import { afterPrograms } from './x87.ts';

/**
 * LiteSVM has no genesis block: a fixed stand-in, so a node check sees the sandbox answer like a
 * cluster. It names no real cluster, so a mainnet or devnet id configured against it is told apart.
 */
const SANDBOX_GENESIS_HASH = base58Encode(createHash('sha256').update('merchant-payments-service sandbox genesis').digest());

/** The in-process connection, with the write path the sandbox's own helpers also use. */
export interface SandboxConnection extends SolanaRpc {
  /** Sends through LiteSVM exactly like `sendRawTransaction`, for already-deserialised transactions. */
  sendVersioned(tx: VersionedTransaction, skipPreflight: boolean): string;
}

function rejected(message: string, logs: string[]): SendTransactionError {
  return new SendTransactionError({ action: 'simulate', signature: '', transactionMessage: message, logs });
}

function record(ledger: SandboxLedger, tx: VersionedTransaction, signature: string, err: TransactionError | null): void {
  // Without a clock each transaction gets its own slot, so slots still tell landings apart.
  if (!ledger.clockRunning) {
    ledger.slot += 1;
    ledger.svm.warpToSlot(BigInt(ledger.slot));
  }
  ledger.landed.set(signature, { slot: ledger.slot, err });
  for (const key of tx.message.staticAccountKeys) {
    const list = ledger.byAddress.get(key.toBase58()) ?? [];
    list.push(signature);
    ledger.byAddress.set(key.toBase58(), list);
  }
}

/**
 * A `SolanaRpc` over LiteSVM, so the chain functions run unchanged in the sandbox.
 *
 * Why this behaviour: it mirrors what a node does for the calls we make. Preflight simulates first and
 * throws web3.js's `SendTransactionError` without committing; a duplicate is refused as
 * "AlreadyProcessed"; a landed transaction (even a failed one, which pays its fee) gets a slot and is
 * finalized at once, or with a block clock (clock.ts) confirmed a slot later and finalized 32 later;
 * a blockhash is accepted for 150 blocks after it was issued (`lastValidBlockHeight`), and block
 * height jumps past every window when the sandbox expires its blockhashes.
 */
export function createSandboxConnection(ledger: SandboxLedger): SandboxConnection {
  const sendVersioned = (tx: VersionedTransaction, skipPreflight: boolean): string => {
    const first = tx.signatures[0];
    if (!first) throw rejected('Transaction has no signatures', []);
    const signature = base58Encode(first);
    if (ledger.landed.has(signature)) {
      if (skipPreflight) return signature;
      throw rejected('Transaction simulation failed: This transaction has already been processed', []);
    }
    // LiteSVM's own check knows only the latest blockhash (it is off, see createSolanaSandbox).
    if (!blockhashValid(ledger, tx.message.recentBlockhash)) {
      throw rejected(skipPreflight ? 'Transaction failed: BlockhashNotFound' : 'Transaction simulation failed: BlockhashNotFound', []);
    }
    if (!skipPreflight) {
      const simulated = afterPrograms(() => ledger.svm.simulateTransaction(tx));
      if ('err' in simulated) {
        const failure = describeFailure(simulated);
        throw rejected(`Transaction simulation failed: ${failure.message}`, simulated.meta().logs());
      }
    }
    const result = afterPrograms(() => ledger.svm.sendTransaction(tx));
    if ('err' in result) {
      const failure = describeFailure(result);
      // Only executed transactions are kept in LiteSVM's history; sanity failures never landed.
      if (!ledger.svm.getTransaction(first)) throw rejected(`Transaction failed: ${failure.message}`, result.meta().logs());
      record(ledger, tx, signature, failure.json);
      return signature;
    }
    record(ledger, tx, signature, null);
    return signature;
  };

  /**
   * A node's `simulateTransaction`: the blockhash checked as at send, signatures checked only when
   * asked (LiteSVM's switch is global, so it is turned back on at once: sends always verify).
   */
  const simulate = (tx: VersionedTransaction, sigVerify: boolean) => {
    const context = { slot: ledger.slot };
    const first = tx.signatures[0];
    if (first && ledger.landed.has(base58Encode(first))) return { context, value: { err: 'AlreadyProcessed' as TransactionError, logs: [], accounts: null, unitsConsumed: 0 } };
    if (!blockhashValid(ledger, tx.message.recentBlockhash))
      return { context, value: { err: 'BlockhashNotFound' as TransactionError, logs: [], accounts: null, unitsConsumed: 0 } };
    if (!sigVerify) ledger.svm.withSigverify(false);
    try {
      const simulated = afterPrograms(() => ledger.svm.simulateTransaction(tx));
      const meta = simulated.meta();
      const err = 'err' in simulated ? describeFailure(simulated).json : null;
      return { context, value: { err, logs: meta.logs(), accounts: null, unitsConsumed: Number(meta.computeUnitsConsumed()) } };
    } finally {
      if (!sigVerify) ledger.svm.withSigverify(true);
    }
  };

  return {
    sendVersioned,
    async simulateTransaction(tx, config) {
      return simulate(tx, config?.sigVerify === true);
    },
    async getRecentPrioritizationFees() {
      // The sandbox's fee market: what the test set (ledger.priorityFees), one entry per recent slot.
      return (ledger.priorityFees ?? []).map((prioritizationFee, i) => ({ slot: Math.max(0, ledger.slot - i), prioritizationFee }));
    },
    async getLatestBlockhash() {
      const blockhash = ledger.svm.latestBlockhash();
      return { blockhash, lastValidBlockHeight: ledger.blockhashes.get(blockhash) ?? ledger.blockhashIssuedAt + BLOCKHASH_VALIDITY_BLOCKS };
    },
    async getBlockHeight(commitment) {
      return atCommitment(ledger, ledger.blockHeight, commitment);
    },
    async getEpochInfo(commitment) {
      const absoluteSlot = atCommitment(ledger, ledger.slot, commitment);
      return { epoch: 0, slotIndex: absoluteSlot, slotsInEpoch: 432_000, absoluteSlot, blockHeight: atCommitment(ledger, ledger.blockHeight, commitment) };
    },
    async getGenesisHash() {
      return SANDBOX_GENESIS_HASH;
    },
    async sendRawTransaction(raw, options) {
      let tx: VersionedTransaction;
      try {
        tx = VersionedTransaction.deserialize(Uint8Array.from(raw));
      } catch (error) {
        throw rejected(`failed to deserialize transaction: ${(error as Error).message}`, []);
      }
      return sendVersioned(tx, options?.skipPreflight === true);
    },
    async getSignatureStatuses(signatures) {
      const value = signatures.map((signature): SignatureStatus | null => {
        const hit = ledger.landed.get(signature);
        if (!hit) return null;
        const { status, confirmations } = commitmentOf(ledger, hit.slot);
        return { slot: hit.slot, confirmations, err: hit.err, confirmationStatus: status };
      });
      return { context: { slot: ledger.slot }, value };
    },
    async getAccountInfo(publicKey: PublicKey) {
      const account = ledger.svm.getAccount(publicKey);
      if (!account || account.lamports === 0) return null;
      const info: AccountInfo<Buffer> = { ...account, data: Buffer.from(account.data) };
      return info;
    },
    async getSignaturesForAddress(address, options, commitment) {
      const wanted = commitment === 'confirmed' ? ['confirmed', 'finalized'] : ['finalized'];
      const signatures = [...(ledger.byAddress.get(address.toBase58()) ?? [])].reverse();
      const found = signatures.flatMap((signature): ConfirmedSignatureInfo[] => {
        const hit = ledger.landed.get(signature) as Landed;
        const { status } = commitmentOf(ledger, hit.slot);
        return wanted.includes(status) ? [{ signature, slot: hit.slot, err: hit.err, memo: null, blockTime: null, confirmationStatus: status }] : [];
      });
      return found.slice(0, options?.limit ?? 1000);
    },
  };
}
