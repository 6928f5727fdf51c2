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
import type { LiteSVM } from 'litesvm';
import type { SolanaRpc } from '../../chains/solana/rpc.ts';
import { base58Encode } from '../../chains/solana/base58.ts';
import { describeFailure } from './errors.ts';
import { afterPrograms } from './x87.ts';

/**
 * LiteSVM has no genesis block: a fixed stand-in, so a node check sees the sandbox answer like a
 * cluster. It names no real cluster, so a mainnet or devnet id configured against it is told apart.
 */
const SANDBOX_GENESIS_HASH = base58Encode(createHash('sha256').update('merchant-payments-service sandbox genesis').digest());

/** Solana's blockhash validity window (MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALIDITY_BLOCKS = 150;

interface Landed {
  slot: number;
  err: TransactionError | null;
}

/** Mutable chain bookkeeping LiteSVM does not keep: slots, block height, signature and address index. */
export interface SandboxLedger {
  svm: LiteSVM;
  slot: number;
  blockHeight: number;
  /** Block height at which the current blockhash was issued. */
  blockhashIssuedAt: number;
  landed: Map<string, Landed>;
  byAddress: Map<string, string[]>;
}

/** The in-process connection, with the write path the sandbox's own helpers also use. */
export interface SandboxConnection extends SolanaRpc {
  /** Sends through LiteSVM exactly like `sendRawTransaction`, for already-deserialised transactions. */
  sendVersioned(tx: VersionedTransaction, skipPreflight: boolean): string;
}

function rejected(message: string, logs: string[]): SendTransactionError {
  return new SendTransactionError({ action: 'simulate', signature: '', transactionMessage: message, logs });
}

function record(ledger: SandboxLedger, tx: VersionedTransaction, signature: string, err: TransactionError | null): void {
  ledger.slot += 1;
  ledger.svm.warpToSlot(BigInt(ledger.slot));
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
 * finalized at once; only the latest blockhash is accepted, so `lastValidBlockHeight` is the current
 * block height + 150 and block height jumps past it when the sandbox expires the blockhash.
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

  return {
    sendVersioned,
    async getLatestBlockhash() {
      return {
        blockhash: ledger.svm.latestBlockhash(),
        lastValidBlockHeight: ledger.blockhashIssuedAt + BLOCKHASH_VALIDITY_BLOCKS,
      };
    },
    async getBlockHeight() {
      return ledger.blockHeight;
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
        return hit ? { slot: hit.slot, confirmations: null, err: hit.err, confirmationStatus: 'finalized' } : null;
      });
      return { context: { slot: ledger.slot }, value };
    },
    async getAccountInfo(publicKey: PublicKey) {
      const account = ledger.svm.getAccount(publicKey);
      if (!account || account.lamports === 0) return null;
      const info: AccountInfo<Buffer> = { ...account, data: Buffer.from(account.data) };
      return info;
    },
    async getSignaturesForAddress(address, options) {
      const signatures = [...(ledger.byAddress.get(address.toBase58()) ?? [])].reverse();
      return signatures.slice(0, options?.limit ?? 1000).map((signature): ConfirmedSignatureInfo => {
        const hit = ledger.landed.get(signature) as Landed;
        return { signature, slot: hit.slot, err: hit.err, memo: null, blockTime: null, confirmationStatus: 'finalized' };
      });
    },
  };
}
