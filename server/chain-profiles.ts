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
