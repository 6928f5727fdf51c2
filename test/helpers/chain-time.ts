// The late-funds tests' shared moves: the service's clock and the sandbox EVM chain's time moved on
// together, blocks mined to finality, buyers funded, and tagged transfers sent as a wallet would.
import { Wallet, type HDNodeWallet } from 'ethers';
import { buildTransferTransaction } from '../../adapters/chains/evm/transfer.ts';
import type { SandboxChains } from '../../server/composition/sandbox/index.ts';
import type { Clock } from '../../server/ports/clock.ts';

type Evm = SandboxChains['evm'];

/**
 * A clock for the service that `travel` moves with the chain (the next block is that much later).
 * `evm` is read at each move, so the clock can be handed to the service before the chains start.
 */
export function chainTime(evm: () => Evm) {
  let offsetMs = 0;
  const rpc = (method: string, params: unknown[] = []) => evm().provider.request({ method, params });
  const mine = async (blocks = 1) => {
    for (let i = 0; i < blocks; i++) await rpc('evm_mine');
  };
  return {
    clock: { now: () => Date.now() + offsetMs } satisfies Clock,
    mine,
    /** `ms` pass for the service and the chain alike, then `blocks` blocks are mined (one by default). */
    async travel(ms: number, blocks = 1): Promise<void> {
      offsetMs += ms;
      await rpc('evm_increaseTime', [Math.ceil(ms / 1000)]);
      await mine(blocks);
    },
  };
}

/** A fresh buyer holding 50 of each token (base units × 10^6) and gas money. */
export async function fundedBuyer(evm: Evm, tokens: readonly string[]): Promise<HDNodeWallet> {
  const wallet = Wallet.createRandom().connect(evm.ethersProvider);
  for (const token of tokens) await evm.fund(wallet.address, token, 50_000_000n);
  await evm.fund(wallet.address, null, 10n ** 17n);
  return wallet;
}

/** Sends `transfer(to, value)` of `token` from `wallet`, with `reference` appended when given; answers its hash once mined. */
export async function sendTransfer(wallet: HDNodeWallet, token: string, to: string, value: bigint, reference?: string): Promise<string> {
  const tx = buildTransferTransaction({ token, from: wallet.address, to, value, ...(reference ? { reference } : {}) });
  const sent = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: 0n });
  await sent.wait();
  return sent.hash.toLowerCase();
}
