// Which accounts and amounts the relayer pays gas for. It serves every partner from one account,
// so a gasless flow is offered only when paying for it is in proportion and cannot be abused: not
// to an account with code (its code runs in the signature check, at the relayer's expense: an
// EIP-7702 delegation made one transfer cost 10.5M gas), not below the asset's gasless minimum,
// not while the relayer cannot pay, not when the expected gas (L1 data fee included) is above the
// chain's share of the amount, and not when the partner's fee budget is spent. The direct
// transfer, where the buyer pays, stays offered.
import type { FeeData, Provider, Wallet } from 'ethers';
import type { OptionRequest } from '../../../server/ports/chains.ts';
import { checksummed } from './address.ts';
import { FLOW_GAS, type RelayerFlowName } from './gas-policy.ts';
import { l1DataFee } from './l1-fee.ts';
import type { RelayerFunds } from './relayer-submit.ts';

/** What the policy needs of one chain. */
export interface GaslessChain {
  caip2: string;
  provider: Provider;
  relayer: Wallet;
  minRelayerBalance: bigint;
  funds: RelayerFunds;
  /** The native coin's price, micro-USD; absent: the gas budget is not checked. */
  nativeUsdMicros?: bigint;
  /** The share of the amount the expected gas may take, percent (default 10). */
  gasBudgetPercent?: number;
  l1DataFee?: 'op-stack' | 'none';
  maxFeePerGas: bigint;
}

/** Reads shared by all options of a chain for a few seconds: options quote many accounts at once. */
export interface ChainReads {
  balance(): Promise<bigint>;
  feeData(): Promise<FeeData>;
  l1Fee(flow: RelayerFlowName): Promise<bigint>;
}

function cached<T>(ttlMs: number, read: () => Promise<T>, now: () => number): () => Promise<T> {
  let entry: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (entry && now() - entry.at < ttlMs) return entry.value;
    const next = { at: now(), value: read() };
    entry = next;
    next.value.catch(() => {
      if (entry === next) entry = null;
    });
    return next.value;
  };
}

export function createChainReads(c: GaslessChain, now: () => number = Date.now): ChainReads {
  // A read taken before the relayer's last refusal for lack of funds is stale: read again.
  let readAfter = -1;
  let balanceRead: () => Promise<{ value: bigint; after: number }> = () => Promise.reject(new Error('unread'));
  const fresh = () => {
    readAfter = c.funds.refusals();
    const after = readAfter;
    balanceRead = cached(15_000, async () => ({ value: await c.provider.getBalance(c.relayer.address), after }), now);
  };
  const balance = () => {
    if (readAfter !== c.funds.refusals()) fresh();
    return balanceRead();
  };
  const feeData = cached(5_000, () => c.provider.getFeeData(), now);
  const l1 = {
    eip3009: cached(15_000, () => sampleL1Fee(c, 'eip3009'), now),
    permit2: cached(15_000, () => sampleL1Fee(c, 'permit2'), now),
  };
  return {
    balance: async () => {
      const b = await balance();
      c.funds.observed(b.value, b.after);
      return b.value;
    },
    feeData,
    l1Fee: (flow) => (c.l1DataFee === 'op-stack' ? l1[flow]() : Promise.resolve(0n)),
  };
}

async function sampleL1Fee(c: GaslessChain, flow: RelayerFlowName): Promise<bigint> {
  return l1DataFee(c.provider, flow, BigInt(c.caip2.split(':')[1]!), FLOW_GAS[flow].ceiling, c.maxFeePerGas);
}

/** The asset's gasless minimum, base units: configured, or a hundredth of a whole token (a cent of a dollar stablecoin). */
export function gaslessMinimum(asset: OptionRequest['asset']): bigint {
  if (asset.gaslessMinimum !== undefined) return BigInt(asset.gaslessMinimum);
  return asset.decimals >= 2 ? 10n ** BigInt(asset.decimals - 2) : 1n;
}

/** The expected cost of one relayer transaction of `flow` now, wei: typical gas at the node's price, plus the L1 data fee. */
export async function expectedCost(reads: ChainReads, flow: RelayerFlowName): Promise<bigint> {
  const fees = await reads.feeData();
  const price = fees.gasPrice ?? fees.maxFeePerGas ?? 0n;
  return FLOW_GAS[flow].typical * price + (await reads.l1Fee(flow));
}

/**
 * Why the relayer must not pay for this option (null when it may). RPC errors refuse too: an
 * option the service cannot weigh is offered as a direct transfer rather than on trust.
 */
export async function gaslessRefusal(c: GaslessChain, reads: ChainReads, req: OptionRequest, flow: RelayerFlowName): Promise<string | null> {
  if (req.feesRefused) return req.feesRefused;
  const minimum = gaslessMinimum(req.asset);
  if (req.amount < minimum) return `the amount is below ${minimum} base units, the least ${req.asset.symbol} the service pays gas for`;
  try {
    const code = await c.provider.getCode(checksummed(req.account.split(':')[2]!));
    if (code !== '0x') return 'the account has code (a contract or an EIP-7702 delegation): it pays its own gas';
    const balance = await reads.balance();
    const needed = c.funds.shortOf() ?? 0n;
    if (balance < c.minRelayerBalance || balance < needed) return `the relayer on ${c.caip2} is short of funds; gasless payments resume once it is topped up`;
    if (c.nativeUsdMicros === undefined || req.valueUsdMicros === undefined || req.valueUsdMicros === null) return null;
    const costUsdMicros = ((await expectedCost(reads, flow)) * c.nativeUsdMicros) / 10n ** 18n;
    const percent = BigInt(c.gasBudgetPercent ?? 10);
    if (costUsdMicros * 100n > req.valueUsdMicros * percent)
      return `its gas (about ${formatUsd(costUsdMicros)} USD) is above ${percent}% of the amount; the buyer pays the gas of a direct transfer`;
    return null;
  } catch {
    return `the service could not read ${c.caip2} to weigh a gasless payment`;
  }
}

const formatUsd = (micros: bigint) => `${micros / 1_000_000n}.${(micros % 1_000_000n).toString().padStart(6, '0').slice(0, 4)}`;
