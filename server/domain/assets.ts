import { parseAssetId, type AssetId } from './caip.ts';

/** How a buyer's wallet can pay in an asset (design.md §3 "How EVM is paid", "How Solana is paid"). */
export type PaymentFlow = 'eip3009' | 'permit2' | 'transfer' | 'spl';

/** An asset as configured (config/assets.*.json, ASSETS_FILE, or the sandbox). */
export interface AssetConfig {
  /** CAIP-19 id. */
  id: string;
  symbol: string;
  name: string;
  decimals: number;
  /** The fiat currency the asset tracks at par (stablecoins), if any. */
  pegCurrency?: string;
  flows: PaymentFlow[];
  /**
   * The least amount, in base units (a decimal string), for which the service pays the fees of a
   * gasless flow; below it only flows where the buyer pays are offered. Absent: a hundredth of one
   * whole token (a cent of a dollar stablecoin).
   */
  gaslessMinimum?: string;
  /**
   * The token refuses to change one non-zero allowance to another (Tether's USDT): a buyer with a
   * leftover allowance below the amount must approve 0 first.
   */
  approveFromZero?: boolean;
  /**
   * The token's EIP-712 domain name and version, as the operator knows them: signed with instead
   * of the token's `name()`/`version()`, and checked against its `DOMAIN_SEPARATOR()` at start.
   */
  eip712?: { name: string; version: string };
  networkName: string;
  iconUrl?: string;
  networkIconUrl?: string;
}

/** A registered asset, with its id parsed once. */
export interface AssetInfo extends AssetConfig {
  parsed: AssetId;
}

/** The assets this deployment accepts, keyed by CAIP-19 id. */
export interface AssetRegistry {
  get(id: string): AssetInfo | undefined;
  all(): AssetInfo[];
}

const FLOWS: PaymentFlow[] = ['eip3009', 'permit2', 'transfer', 'spl'];

/** Builds the registry, rejecting a malformed entry at start rather than at a payment. */
export function createAssetRegistry(configs: AssetConfig[]): AssetRegistry {
  const byId = new Map<string, AssetInfo>();
  for (const c of configs) {
    const parsed = parseAssetId(c.id);
    if (!parsed) throw new Error(`asset registry: ${c.id} is not a CAIP-19 asset id`);
    if (!Number.isInteger(c.decimals) || c.decimals < 0 || c.decimals > 36) throw new Error(`asset registry: ${c.id} has bad decimals`);
    if (!c.flows.length || c.flows.some((f) => !FLOWS.includes(f))) throw new Error(`asset registry: ${c.id} has unknown flows`);
    if (byId.has(c.id)) throw new Error(`asset registry: ${c.id} listed twice`);
    byId.set(c.id, { ...c, parsed });
  }
  return { get: (id) => byId.get(id), all: () => [...byId.values()] };
}

/** The largest transfer amount, in base units, each namespace's token standard can carry. */
const MAX_AMOUNT_BY_NAMESPACE: Record<string, bigint> = {
  // SPL token amounts are u64.
  solana: 2n ** 64n - 1n,
  // ERC-20 amounts are uint256.
  eip155: 2n ** 256n - 1n,
};

/**
 * The largest amount of `asset` one payment can move: no option is offered above it, since the
 * chain could not carry the transfer. A namespace not listed is bounded like EVM (uint256), which
 * is also what the storage's amount columns hold.
 */
export function maxTransferAmount(asset: Pick<AssetInfo, 'parsed'>): bigint {
  return MAX_AMOUNT_BY_NAMESPACE[asset.parsed.chain.namespace] ?? MAX_AMOUNT_BY_NAMESPACE.eip155!;
}

/**
 * The registry's id for an asset, or undefined when it is not listed: any letter case of an EVM
 * token address names the same token, so partners need not reproduce its EIP-55 checksum.
 */
export function canonicalAssetId(assets: AssetRegistry, asset: string): string | undefined {
  const parsed = parseAssetId(asset);
  if (!parsed) return undefined;
  if (assets.get(asset)) return asset;
  if (parsed.chain.namespace === 'eip155' && /^0x[0-9a-fA-F]{40}$/.test(parsed.assetReference)) {
    const lower = parsed.assetReference.toLowerCase();
    return assets
      .all()
      .find(
        (a) =>
          a.parsed.chain.namespace === 'eip155' &&
          a.parsed.chain.reference === parsed.chain.reference &&
          a.parsed.assetNamespace === parsed.assetNamespace &&
          a.parsed.assetReference.toLowerCase() === lower,
      )?.id;
  }
  return undefined;
}
