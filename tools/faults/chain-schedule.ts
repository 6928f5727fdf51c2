// The chain fault schedule of `npm run test:chain-faults`: what commercial RPC providers and real
// chains do, injected by the fault proxy (tools/chain-faults/) in front of the standalone sandbox
// chains, and by the chains' dev methods, while the steady load runs. Each fault is bounded
// (`forMs`, `times`), so the drain after the load sees the chains healthy again; what the service
// did meanwhile is judged by the same checks as the process fault suite plus the chain rows.
import type { EvmDev, FaultControl } from '../chain-faults/index.ts';

export interface ChainTargets {
  /** The proxy's nodes: the service reads and broadcasts through them only. */
  proxy: FaultControl;
  /** The real EVM node's dev methods (never through the faulty nodes). */
  evm: EvmDev;
  /** The service's relayer: its transactions in dropped blocks are lost with its node's pool. */
  /** Every key of the relayer's pool (EVM_RELAYER_KEYS): a reorg loses all of their transactions. */
  relayerAddresses: string[];
  /** The load's faucet held while a reorg is made (its gas money is a set balance, which a revert undoes). */
  faucet: { hold(): Promise<void>; release(): void };
  /** The merchant empties its EVM address (every token it received sent elsewhere); runs beside the schedule. */
  sweepMerchant(): void;
}

interface ChainFault {
  atMs: number;
  name: string;
  run(t: ChainTargets, log: (line: string) => void): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const GWEI = 1_000_000_000n;

export const CHAIN_FAULTS: ChainFault[] = [
  {
    atMs: 0,
    name: 'every EVM node refuses eth_getLogs over more than 10 blocks, as Alchemy does, for the rest of the run',
    async run(t) {
      t.proxy.set('evm:*', { kind: 'logs-range-cap', maxBlocks: 10 }, { forMs: 10 * 60_000 });
      await Promise.resolve();
    },
  },
  {
    atMs: 8_000,
    name: 'EVM provider throttles: every 3rd call a 429 with Retry-After: 1, for 10 s',
    async run(t) {
      t.proxy.set('evm:*', { kind: 'throttle', retryAfter: 1 }, { every: 3, forMs: 10_000 });
      await sleep(10_000);
    },
  },
  {
    atMs: 19_000,
    name: "the merchant sweeps its EVM address to zero (the relayer's next transfers there cost a fresh storage slot more)",
    async run(t) {
      t.sweepMerchant();
      await Promise.resolve();
    },
  },
  {
    atMs: 20_000,
    name: 'EVM provider slow: 400 ms on every call, for 8 s',
    async run(t) {
      t.proxy.set('evm:*', { kind: 'latency', ms: 400 }, { forMs: 8_000 });
      await sleep(8_000);
    },
  },
  {
    atMs: 30_000,
    name: "EVM provider's gateway fails: every 4th call a 502 page, for 8 s",
    async run(t) {
      t.proxy.set('evm:*', { kind: 'http-error', status: 502 }, { every: 4, forMs: 8_000 });
      await sleep(8_000);
    },
  },
  {
    atMs: 40_000,
    name: 'base fee spikes to 60 gwei; broadcasts priced below it are refused as geth does, for 10 s',
    async run(t) {
      await t.evm.setNextBaseFee(60n * GWEI);
      t.proxy.set('evm:*', { kind: 'refuse-broadcasts', reason: 'fee-cap-below-base-fee' }, { forMs: 10_000 });
      t.proxy.set('evm:*', { kind: 'refuse-broadcasts', reason: 'transaction-underpriced' }, { times: 3 });
      await sleep(10_000);
    },
  },
  {
    atMs: 50_000,
    name: 'Solana: every 3rd call a 429 with Retry-After: 1; node 0 drops broadcasts; node 2 lags 4 slots; for 6 s',
    async run(t) {
      t.proxy.set('solana:*', { kind: 'throttle', retryAfter: 1 }, { every: 3, forMs: 6_000 });
      t.proxy.set('solana:0', { kind: 'drop-broadcasts' }, { forMs: 6_000 });
      t.proxy.set('solana:2', { kind: 'lag', by: 4 }, { forMs: 6_000 });
      await sleep(6_000);
    },
  },
  {
    atMs: 58_000,
    name: 'one EVM node hangs (no answer) and another lags 3 blocks behind (stale reads, hidden receipts, stale pending nonce), for 8 s',
    async run(t) {
      t.proxy.set('evm:0', { kind: 'hang' }, { forMs: 8_000 });
      t.proxy.set('evm:1', { kind: 'lag', by: 3 }, { forMs: 8_000 });
      await sleep(8_000);
    },
  },
  {
    atMs: 66_000,
    name: 'EVM broadcasts answered "already known" by a node that forwarded them anyway (a second endpoint), 5 times',
    async run(t) {
      t.proxy.set('evm:*', { kind: 'refuse-broadcasts', reason: 'already-known', forward: true }, { times: 5 });
      await sleep(4_000);
    },
  },
  {
    atMs: 71_000,
    name: "EVM reorg: the last 4 blocks replaced by a longer branch; buyers' transactions return to the pool, the relayer's are lost",
    async run(t, log) {
      await t.faucet.hold();
      try {
        const snapshot = await t.evm.snapshot();
        await sleep(4_000);
        const relayers = new Set(t.relayerAddresses.map((a) => a.toLowerCase()));
        const r = await t.evm.reorg(snapshot, { extraBlocks: 1, reinject: (tx) => !relayers.has(tx.from.toLowerCase()) });
        log(`dropped blocks ${r.from}..${r.oldHead} (depth ${r.depth}); new head ${r.newHead}; the pool kept`);
      } finally {
        t.faucet.release();
      }
    },
  },
];

/** Runs the schedule from `loadStart`; resolves when the last fault is over. Every rule is bounded in time or count. */
export async function runChainFaults(t: ChainTargets, loadStart: number, log: (line: string) => void): Promise<void> {
  for (const fault of CHAIN_FAULTS) {
    const wait = loadStart + fault.atMs - Date.now();
    if (wait > 0) await sleep(wait);
    log(`chain fault: ${fault.name}`);
    await fault.run(t, (line) => log(`  ${line}`));
    log(`chain fault over: ${fault.name}`);
  }
}
