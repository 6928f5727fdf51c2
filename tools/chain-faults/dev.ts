// The chains' dev controls, for tests and the fault suite: reorgs of any depth (snapshot, revert,
// a conflicting transaction, mine the new branch longer), mining, base-fee spikes, time; Solana's
// blockhash expiry and slots. They talk to the real node (the standalone sandbox chains started
// with --dev-methods, or the in-process sandbox), never through the faulty nodes.
import { Transaction } from 'ethers';
import { httpUpstream, type RpcOutcome, type UpstreamCall } from './upstream.ts';

export interface ReorgResult {
  /** Blocks dropped from the old branch. */
  depth: number;
  /** The first block number that was replaced. */
  from: number;
  oldHead: number;
  newHead: number;
}

export interface EvmDev {
  head(): Promise<number>;
  /** A point to reorg back to: the chain as of its head now (interval mining may run meanwhile). */
  snapshot(): Promise<string>;
  /** Back to a snapshot: every later block and its transactions are gone, mempool included. */
  revert(id: string): Promise<void>;
  mine(blocks?: number): Promise<void>;
  setAutomine(on: boolean): Promise<void>;
  /** A block every `ms` (0 stops interval mining). */
  setIntervalMining(ms: number): Promise<void>;
  /** The next block's base fee (a spike; EIP-1559 brings it down 12.5 % a block after). */
  setNextBaseFee(wei: bigint): Promise<void>;
  increaseTime(seconds: number): Promise<void>;
  setBalance(address: string, wei: bigint): Promise<void>;
  sendRaw(raw: string): Promise<string>;
  /**
   * A reorg: the blocks after `snapshot` are replaced by a longer branch (`extraBlocks` longer,
   * default 1) holding the `conflicting` raw transactions (e.g. the buyer spending the tokens
   * elsewhere, another account using the authorization) instead of what they held. Dropped
   * transactions are gone, mempool included, unless `reinject` picks them: those are sent again
   * after the conflicting ones, as geth returns a dropped block's transactions to its pool (a
   * buyer's approval comes back; a relayer's transaction whose node lost it does not).
   */
  reorg(snapshot: string, options?: { conflicting?: string[]; extraBlocks?: number; reinject?: (tx: { from: string; hash: string }) => boolean }): Promise<ReorgResult>;
  call(method: string, params?: unknown[]): Promise<unknown>;
}

export interface SolanaDev {
  /** Every blockhash issued so far can no longer land. */
  expireBlockhash(): Promise<void>;
  advanceBlocks(n: number): Promise<void>;
}

const hex = (n: number | bigint) => `0x${n.toString(16)}`;

function caller(upstream: UpstreamCall) {
  return async (method: string, params: unknown[] = []): Promise<unknown> => {
    const answer: RpcOutcome = await upstream(method, params);
    if ('error' in answer) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result;
  };
}

/** EVM dev controls over the real node's JSON-RPC (a URL, or an in-process call). */
export function evmDev(node: string | UpstreamCall): EvmDev {
  const call = caller(typeof node === 'string' ? httpUpstream(node) : node);
  const snapshots = new Map<string, number>();
  const head = async () => Number(await call('eth_blockNumber'));
  const mine = async (blocks = 1) => {
    if (blocks < 1) return;
    // The first block takes what the mempool holds; hardhat_mine adds empty blocks fast.
    await call('evm_mine');
    if (blocks > 1) await call('hardhat_mine', [hex(blocks - 1)]);
  };
  const dev: EvmDev = {
    head,
    async snapshot() {
      for (;;) {
        const before = await head();
        const id = String(await call('evm_snapshot'));
        if ((await head()) === before) {
          snapshots.set(id, before);
          return id;
        }
        // A block came between: the snapshot's head is unknown; take another.
      }
    },
    async revert(id) {
      if ((await call('evm_revert', [id])) !== true) throw new Error(`evm_revert ${id}: no such snapshot (reverted already, or taken before a revert)`);
    },
    mine,
    setAutomine: async (on) => void (await call('evm_setAutomine', [on])),
    setIntervalMining: async (ms) => void (await call('evm_setIntervalMining', [ms])),
    setNextBaseFee: async (wei) => void (await call('hardhat_setNextBlockBaseFeePerGas', [hex(wei)])),
    increaseTime: async (seconds) => void (await call('evm_increaseTime', [seconds])),
    setBalance: async (address, wei) => void (await call('hardhat_setBalance', [address, hex(wei)])),
    sendRaw: async (raw) => String(await call('eth_sendRawTransaction', [raw])),
    async reorg(snapshot, options = {}) {
      const at = snapshots.get(snapshot);
      if (at === undefined) throw new Error(`snapshot ${snapshot} was not taken through this helper`);
      const oldHead = await head();
      const dropped = options.reinject ? await signedTransactions(call, at + 1, oldHead) : [];
      // A node keeps its pool through a reorg; the sandbox's evm_revert empties it: sent again after.
      const pending = await pendingTransactions(call);
      await dev.revert(snapshot);
      snapshots.delete(snapshot);
      for (const raw of options.conflicting ?? []) await dev.sendRaw(raw);
      for (const tx of dropped.filter((t) => options.reinject!(t))) await dev.sendRaw(tx.raw).catch(() => {}); // a conflicting one took its nonce
      for (const tx of pending) await dev.sendRaw(tx.raw).catch(() => {});
      // With automine on, sending mined already; the rest makes the new branch the longer one.
      await mine(oldHead + (options.extraBlocks ?? 1) - (await head()));
      return { depth: oldHead - at, from: at + 1, oldHead, newHead: await head() };
    },
    call,
  };
  return dev;
}

type Call = (method: string, params?: unknown[]) => Promise<unknown>;
type SignedTx = { from: string; hash: string; raw: string };

/** The signed transactions of blocks `from..to`, re-serialized from their fields and signatures. */
async function signedTransactions(call: Call, from: number, to: number): Promise<SignedTx[]> {
  const out: SignedTx[] = [];
  for (let n = from; n <= to; n++) {
    const block = (await call('eth_getBlockByNumber', [hex(n), true])) as { transactions: Record<string, unknown>[] } | null;
    for (const t of block?.transactions ?? []) out.push(reserialized(t));
  }
  return out;
}

/** The node's pool (Hardhat's `eth_pendingTransactions`), each sender's in nonce order. */
async function pendingTransactions(call: Call): Promise<SignedTx[]> {
  const txs = (await call('eth_pendingTransactions')) as Record<string, unknown>[];
  return [...txs].sort((a, b) => Number(a.nonce) - Number(b.nonce)).map(reserialized);
}

/** A transaction as JSON-RPC returns it, signed and serialized again. */
function reserialized(t: Record<string, unknown>): SignedTx {
  const tx = Transaction.from({
    type: Number(t.type),
    chainId: BigInt(t.chainId as string),
    nonce: Number(t.nonce),
    to: (t.to as string | null) ?? null,
    data: t.input as string,
    value: BigInt(t.value as string),
    gasLimit: BigInt(t.gas as string),
    ...(t.maxFeePerGas
      ? { maxFeePerGas: BigInt(t.maxFeePerGas as string), maxPriorityFeePerGas: BigInt(t.maxPriorityFeePerGas as string) }
      : { gasPrice: BigInt(t.gasPrice as string) }),
    ...(t.accessList ? { accessList: t.accessList as [] } : {}),
    signature: { r: t.r as string, s: t.s as string, v: Number(t.yParity ?? t.v) },
  });
  return { from: t.from as string, hash: t.hash as string, raw: tx.serialized };
}

/** Solana dev controls over the standalone sandbox's JSON-RPC (served with --dev-methods). */
export function solanaDev(node: string | UpstreamCall): SolanaDev {
  const call = caller(typeof node === 'string' ? httpUpstream(node) : node);
  return {
    expireBlockhash: async () => void (await call('sandbox_expireBlockhash')),
    advanceBlocks: async (n) => void (await call('sandbox_advanceBlocks', [n])),
  };
}
