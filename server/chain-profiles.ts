// What the service knows of each production chain it may pay on, in one table: the per-chain
// defaults (finality, fee caps, minimum balances, …) are chosen here from each chain's own history
// and documented beside the value, and the configuration may override them per chain. A chain not
// in the table gets the conservative defaults of its kind.

/** How a chain's blocks are produced and settled: decides which defaults and which fee terms apply. */
export type ChainKind =
  /** A proof-of-stake L1 with `safe`/`finalized` block tags (Ethereum and its testnets). */
  | 'ethereum'
  /** An OP-stack rollup: an L1 data fee on top of L2 gas (GasPriceOracle), `safe`/`finalized` follow L1. */
  | 'op-stack'
  /** An Arbitrum Nitro rollup: L1 costs folded into L2 gas, `safe`/`finalized` follow L1. */
  | 'arbitrum'
  /** Polygon PoS: a minimum priority fee, deep historical reorgs, `finalized` from milestones. */
  | 'polygon-pos'
  /** Any other EVM chain: the most cautious defaults. */
  | 'evm'
  /** The service's own sandbox chain: instant blocks, no reorgs unless a test makes one. */
  | 'sandbox'
  | 'solana';

export interface ChainProfile {
  /** CAIP-2. */
  caip2: string;
  name: string;
  kind: ChainKind;
  /** The chain's usual block interval: what "a few blocks" means in time. */
  blockTimeMs: number;
}

/** Chains the service has defaults for. Sources are named beside each figure that is not obvious. */
export const CHAIN_PROFILES: readonly ChainProfile[] = [
  { caip2: 'eip155:1', name: 'Ethereum', kind: 'ethereum', blockTimeMs: 12_000 },
  { caip2: 'eip155:11155111', name: 'Sepolia', kind: 'ethereum', blockTimeMs: 12_000 },
  { caip2: 'eip155:8453', name: 'Base', kind: 'op-stack', blockTimeMs: 2_000 },
  { caip2: 'eip155:84532', name: 'Base Sepolia', kind: 'op-stack', blockTimeMs: 2_000 },
  { caip2: 'eip155:10', name: 'OP Mainnet', kind: 'op-stack', blockTimeMs: 2_000 },
  { caip2: 'eip155:42161', name: 'Arbitrum One', kind: 'arbitrum', blockTimeMs: 250 },
  { caip2: 'eip155:137', name: 'Polygon PoS', kind: 'polygon-pos', blockTimeMs: 2_000 },
  { caip2: 'eip155:80002', name: 'Polygon Amoy', kind: 'polygon-pos', blockTimeMs: 2_000 },
  { caip2: 'eip155:31337', name: 'Sandbox EVM', kind: 'sandbox', blockTimeMs: 1_000 },
  { caip2: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', name: 'Solana', kind: 'solana', blockTimeMs: 400 },
  { caip2: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', name: 'Solana Devnet', kind: 'solana', blockTimeMs: 400 },
];

/** The profile of `caip2`: the table's entry, or an unnamed one of the most cautious kind of its namespace. */
export function chainProfile(caip2: string): ChainProfile {
  const known = CHAIN_PROFILES.find((p) => p.caip2 === caip2);
  if (known) return known;
  if (caip2.startsWith('solana:')) return { caip2, name: caip2, kind: 'solana', blockTimeMs: 400 };
  return { caip2, name: caip2, kind: 'evm', blockTimeMs: 12_000 };
}

// ---- Fees: what the service's fee accounts may spend on each kind of chain ----

/**
 * The fee defaults of one chain: caps on what the relayer signs, when its account counts as low,
 * and how a payment's gas is weighed against its amount. Amounts in the chain's native base units
 * (wei, lamports); the configuration may override each per chain (EVM_CHAIN_FEES, FEE_BUDGETS).
 */
export interface ChainFeeDefaults {
  /** The highest max fee per gas (or gas price) the relayer signs, wei: past it a transaction waits. */
  maxFeePerGas: bigint;
  /** The lowest priority fee nodes of this chain accept, wei (0: whatever the node suggests). */
  minPriorityFee: bigint;
  /** Below this native balance the relayer is reported low and gasless options stop. */
  minRelayerBalance: bigint;
  /**
   * The native coin's price in micro-USD used to weigh gas against a payment's amount. Chosen above
   * any price the coin has traded at, so the check errs toward offering the direct transfer only.
   */
  nativeUsdMicros: bigint;
  /** A relayer flow is offered only while its expected gas cost is at most this share of the amount, percent. */
  gasBudgetPercent: number;
  /** What one partner's payments may spend from the shared fee account per budget period (FEE_BUDGET_PERIOD_S, a day by default). */
  partnerBudget: bigint;
  /** Whether the chain charges an L1 data fee beside L2 gas that the relayer pays too. */
  l1DataFee: 'op-stack' | 'none';
}

const GWEI = 1_000_000_000n;
const ETHER = 10n ** 18n;
const USD = 1_000_000n;

/**
 * Why each figure: Ethereum's base fee passed 300 gwei only in short spikes (2021–22 mints); a
 * transfer there costs dollars, so a day's budget of 0.5 ETH is some hundreds of payments. OP
 * stack and Arbitrum base fees sit near 0.01 gwei (Arbitrum's floor), 10 gwei is a thousand times
 * that; their L1 data fee is paid on top (OP: GasPriceOracle, Arbitrum: in gas units). Polygon PoS
 * bor refuses tips under 25 gwei ("gas tip cap …, minimum needed 25000000000") and its base fee
 * reached thousands of gwei in the 2023 inscription waves; POL has never traded near 5 USD. ETH is
 * weighed at 10,000 USD, above its all-time high. The sandbox's ether is free, priced at 1 USD so
 * small sandbox payments stay gasless while dust does not.
 */
const FEE_DEFAULTS: Record<Exclude<ChainKind, 'solana'>, ChainFeeDefaults> = {
  ethereum: {
    maxFeePerGas: 300n * GWEI,
    minPriorityFee: 0n,
    minRelayerBalance: ETHER / 20n,
    nativeUsdMicros: 10_000n * USD,
    gasBudgetPercent: 10,
    partnerBudget: ETHER / 2n,
    l1DataFee: 'none',
  },
  'op-stack': {
    maxFeePerGas: 10n * GWEI,
    minPriorityFee: 0n,
    minRelayerBalance: ETHER / 200n,
    nativeUsdMicros: 10_000n * USD,
    gasBudgetPercent: 10,
    partnerBudget: ETHER / 20n,
    l1DataFee: 'op-stack',
  },
  arbitrum: {
    maxFeePerGas: 10n * GWEI,
    minPriorityFee: 0n,
    minRelayerBalance: ETHER / 200n,
    nativeUsdMicros: 10_000n * USD,
    gasBudgetPercent: 10,
    partnerBudget: ETHER / 20n,
    l1DataFee: 'none',
  },
  'polygon-pos': {
    maxFeePerGas: 3_000n * GWEI,
    minPriorityFee: 25n * GWEI,
    minRelayerBalance: 20n * ETHER,
    nativeUsdMicros: 5n * USD,
    gasBudgetPercent: 10,
    partnerBudget: 200n * ETHER,
    l1DataFee: 'none',
  },
  evm: {
    maxFeePerGas: 500n * GWEI,
    minPriorityFee: 0n,
    minRelayerBalance: ETHER / 100n,
    nativeUsdMicros: 10_000n * USD,
    gasBudgetPercent: 10,
    partnerBudget: ETHER / 10n,
    l1DataFee: 'none',
  },
  sandbox: {
    maxFeePerGas: 500n * GWEI,
    minPriorityFee: 0n,
    minRelayerBalance: ETHER / 100n,
    nativeUsdMicros: USD,
    gasBudgetPercent: 10,
    partnerBudget: 10n * ETHER,
    l1DataFee: 'none',
  },
};

/**
 * What one partner's Solana payments may spend from the fee payer per budget period, lamports:
 * 1 SOL, a few thousand transfers at the base fee with a priority fee, or ~480 new token
 * accounts' rent.
 */
const SOLANA_PARTNER_BUDGET = 1_000_000_000n;

/** The fee defaults of an EVM chain (its kind's), or null for a chain that is not EVM. */
export function chainFeeDefaults(caip2: string): ChainFeeDefaults | null {
  const kind = chainProfile(caip2).kind;
  return kind === 'solana' ? null : FEE_DEFAULTS[kind];
}

/** What one partner may spend from the fee account of `caip2` per budget period, native base units. */
export function defaultPartnerBudget(caip2: string): bigint {
  return chainFeeDefaults(caip2)?.partnerBudget ?? SOLANA_PARTNER_BUDGET;
}

// ---- Finality: when a transaction's block can no longer be reorganized away ----

/**
 * When a chain calls a block final. `tag`: the node's `finalized` (or `safe`) block tag, a block
 * at or below it is final (proof-of-stake checkpoints, or rollups following L1); `depth`: that
 * many blocks including the transaction's own (chains without tags worth trusting); `commitment`:
 * Solana's. The configuration may override it per chain (CHAIN_FINALITY).
 */
export type ChainFinality = { kind: 'tag'; tag: 'finalized' | 'safe' } | { kind: 'depth'; blocks: number } | { kind: 'commitment'; commitment: 'confirmed' | 'finalized' };

/**
 * Each kind's default, and why:
 * - Ethereum: the `finalized` tag, two epochs (~13 min); a reorg past it needs a third of all
 *   stake slashed. Short reorgs of 1–2 blocks happen weekly, so `latest` is not enough.
 * - OP stack, Arbitrum: `finalized` follows the L1 batch being finalized on Ethereum (~15–30 min
 *   after the L2 block); the sequencer's `latest` can be rewritten if its batch never lands.
 * - Polygon PoS: reorgs of 32 (2022) and ~157 blocks (Feb 2023) happened; since the milestones
 *   (Heimdall v2, 2024) bor's `finalized` tag is deterministic finality within a few seconds, and
 *   is what a depth would only approximate.
 * - Any other EVM chain: 64 blocks and no trust in its tags, which may be absent or mean nothing.
 * - The sandbox: 2 blocks, so tests can reorganize a confirmed payment and see it healed quickly.
 * - Solana: `finalized` (rooted, 31+ confirmed blocks on top; ~13 s).
 */
const FINALITY_DEFAULTS: Record<ChainKind, ChainFinality> = {
  ethereum: { kind: 'tag', tag: 'finalized' },
  'op-stack': { kind: 'tag', tag: 'finalized' },
  arbitrum: { kind: 'tag', tag: 'finalized' },
  'polygon-pos': { kind: 'tag', tag: 'finalized' },
  evm: { kind: 'depth', blocks: 64 },
  sandbox: { kind: 'depth', blocks: 2 },
  solana: { kind: 'commitment', commitment: 'finalized' },
};

/**
 * About how long after its block a transaction becomes final under each kind's default, ms: the
 * heal window. An authorization the buyer signs stays valid this long past the quote deadline, so
 * a transaction whose block is dropped before it is final can still be sent again.
 */
const FINALITY_TIME_MS: Record<ChainKind, number> = {
  ethereum: 15 * 60_000,
  'op-stack': 30 * 60_000,
  arbitrum: 30 * 60_000,
  'polygon-pos': 60_000,
  evm: 0,
  sandbox: 0,
  solana: 20_000,
};

/** The finality policy of `caip2`: the override configured for it, or its kind's default. */
export function chainFinality(caip2: string, overrides: Readonly<Record<string, ChainFinality>> = {}): ChainFinality {
  return overrides[caip2] ?? FINALITY_DEFAULTS[chainProfile(caip2).kind];
}

/**
 * How long past the quote deadline a buyer's authorization on `caip2` stays valid, ms: the time to
 * finality (for a depth, that many blocks), capped at an hour so no signature lives on for long.
 */
export function healWindowMs(caip2: string, overrides: Readonly<Record<string, ChainFinality>> = {}): number {
  const profile = chainProfile(caip2);
  const policy = chainFinality(caip2, overrides);
  const ms = policy.kind === 'depth' ? Math.max(FINALITY_TIME_MS[profile.kind], policy.blocks * profile.blockTimeMs) : FINALITY_TIME_MS[profile.kind];
  return Math.min(ms, 60 * 60_000);
}

/**
 * Parses CHAIN_FINALITY: a JSON object of CAIP-2 → `"finalized"`, `"safe"` (block tags), a block
 * depth (a positive integer), or for Solana `"confirmed"`/`"finalized"`. A problem as a sentence.
 */
export function parseChainFinality(raw: string): { ok: true; value: Record<string, ChainFinality> } | { ok: false; problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { ok: false, problem: 'is not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, problem: 'must be a JSON object of CAIP-2 chain → policy' };
  const value: Record<string, ChainFinality> = {};
  for (const [caip2, v] of Object.entries(parsed as Record<string, unknown>)) {
    if (!/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/.test(caip2)) return { ok: false, problem: `${caip2} is not a CAIP-2 chain id` };
    const solana = caip2.startsWith('solana:');
    if (solana && (v === 'confirmed' || v === 'finalized')) value[caip2] = { kind: 'commitment', commitment: v };
    else if (!solana && (v === 'finalized' || v === 'safe')) value[caip2] = { kind: 'tag', tag: v };
    else if (!solana && Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 10_000) value[caip2] = { kind: 'depth', blocks: v as number };
    else return { ok: false, problem: `${caip2}: ${JSON.stringify(v)} is not ${solana ? '"confirmed" or "finalized"' : '"finalized", "safe" or a depth in blocks (1–10000)'}` };
  }
  return { ok: true, value };
}

// ---- Head freshness: when an RPC endpoint's view of the chain is too old to decide on ----

/**
 * How stale an endpoint's head may be before the self-checks call it failed: the age of its latest
 * block (null: not checked, the chain makes blocks only when asked), and how many blocks (Solana:
 * slots) it may be behind the freshest endpoint of the same chain.
 */
export interface HeadFreshness {
  maxAgeMs: number | null;
  maxLagBlocks: number;
}

/**
 * Each kind's bound, and why:
 * - Ethereum: a slot is 12 s and missed slots come in runs of two or three; 60 s (5 slots) is a
 *   node that stopped following, 3 blocks behind another endpoint is one that fell behind.
 * - OP stack, Polygon PoS: 2 s blocks that never pause; 30 s or 10 blocks (20 s) behind.
 * - Arbitrum: blocks come only with transactions (250 ms at most), so a quiet minute can pass
 *   without one; 60 s, and 80 blocks (20 s at full speed) behind.
 * - Any other EVM chain: 120 s, 10 blocks.
 * - The sandbox: it mines on demand (its head may be hours old when idle); only the lag is checked, 2 blocks.
 * - Solana: 30 s (75 slots), and 150 slots behind, the distance at which Solana's own `getHealth`
 *   calls a node behind (and past which it refuses fresh blockhashes).
 */
const HEAD_FRESHNESS: Record<ChainKind, HeadFreshness> = {
  ethereum: { maxAgeMs: 60_000, maxLagBlocks: 3 },
  'op-stack': { maxAgeMs: 30_000, maxLagBlocks: 10 },
  arbitrum: { maxAgeMs: 60_000, maxLagBlocks: 80 },
  'polygon-pos': { maxAgeMs: 30_000, maxLagBlocks: 10 },
  evm: { maxAgeMs: 120_000, maxLagBlocks: 10 },
  sandbox: { maxAgeMs: null, maxLagBlocks: 2 },
  solana: { maxAgeMs: 30_000, maxLagBlocks: 150 },
};

/** The head freshness bound of `caip2` (its kind's). The sandbox Solana cluster is checked like the sandbox EVM chain. */
export function headFreshness(caip2: string): HeadFreshness {
  if (caip2 === 'solana:sandbox') return HEAD_FRESHNESS.sandbox;
  return HEAD_FRESHNESS[chainProfile(caip2).kind];
}
