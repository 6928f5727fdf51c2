// The conformance harness's fault hooks act on the adapter's own chain and nodes, on both
// transports: a fault set through `inject` reaches the adapter's node (and is undone), a reorg
// through `mark`/`reorg` takes a paid transfer off the chain. The fault cases other suites add
// stand on these.
import { describe, expect, it } from 'vitest';
import { expectOption } from '../../../server/ports/chains.ts';
import type { ChainHarness, ChainTransport } from './harness.ts';
import { openEvmHarness } from './evm-transports.ts';
import { openSolanaHarness } from './solana-transports.ts';

const transports: ChainTransport[] = ['in-process', 'json-rpc'];

async function withHarness(open: () => Promise<ChainHarness>, use: (h: ChainHarness) => Promise<void>): Promise<void> {
  const h = await open();
  try {
    await use(h);
  } finally {
    h.faults.clear();
    await h.close();
  }
}

describe.each(transports)('chain fault hooks, %s', (transport) => {
  it('EVM: a fault on the adapter’s node reaches the adapter, and its undo ends it; a reorg takes a mined transfer away', async () => {
    await withHarness(
      () => openEvmHarness(transport),
      async (h) => {
        expect(h.faults).toMatchObject({ transport, nodes: 1 });
        const undo = h.faults.inject(0, { kind: 'rpc-error', code: -32603, message: 'internal error' }, { methods: ['eth_getBalance'] });
        const [relayer] = await h.port.accounts!();
        expect(relayer!.balance).toBeNull();
        expect(h.faults.calls({ method: 'eth_getBalance' }).at(-1)).toMatchObject({ node: 0, fault: 'rpc-error' });
        undo();
        expect((await h.port.accounts!())[0]!.balance).toBeGreaterThan(0n);

        const flow = h.flows.find((f) => f.flow === 'transfer')!;
        const buyer = await h.newBuyer(flow, 5n);
        const destination = h.newDestination();
        const mark = await h.faults.mark!();
        const prepared = expectOption(
          await h.port.prepareOption({
            paymentId: `pay_hooks_${transport}`,
            optionId: 'opt_1',
            account: buyer.account,
            asset: flow.asset,
            amount: 5n,
            destination,
            quotedAt: new Date(h.now()),
            deadline: new Date(h.now() + 600_000),
          }),
        );
        await buyer.act(prepared.actions);
        expect(await h.balance(destination, flow.asset)).toBe(5n);
        const reorg = await h.faults.reorg!(mark);
        expect(reorg.depth).toBeGreaterThanOrEqual(1);
        expect(await h.balance(destination, flow.asset)).toBe(0n);
      },
    );
  }, 120_000);

  it('Solana: a fault on the adapter’s node reaches the adapter, and its undo ends it; faults the transport cannot act out are refused', async () => {
    await withHarness(
      () => openSolanaHarness(transport),
      async (h) => {
        const undo = h.faults.inject('*', { kind: 'rpc-error', code: -32005, message: 'Node is behind by 42 slots' }, { methods: ['getBalance', 'getAccountInfo'] });
        const [feePayer] = await h.port.accounts!();
        expect(feePayer!.balance).toBeNull();
        undo();
        expect((await h.port.accounts!())[0]!.balance).toBeGreaterThan(0n);
        expect(() => h.faults.inject(0, { kind: 'logs-range-cap', maxBlocks: 10 })).toThrow(/EVM fault/);
        if (transport === 'in-process') expect(() => h.faults.inject(0, { kind: 'throttle' })).toThrow(/HTTP fault/);
      },
    );
  }, 120_000);
});
