import { AppError, notFound, validationError, type ValidationIssue } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CryptoSettlementRecord, MerchantRecord } from './records.ts';
import type { IdempotencyCompletion } from '../idempotency/records.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import { canonicalAssetId, type AssetRegistry } from '../assets.ts';
import { addressProblem, formatChainId, normalizeAddress, parseAccountId, parseAssetId, sameChain } from '../caip.ts';
import { newIds } from '../ids.ts';

/**
 * Crypto settlements: where a merchant is paid, per asset. The rules (design.md §3 Settlements):
 * the asset is one this service settles in; the destination is a valid address on the asset's
 * chain; one destination per asset and merchant; up to 50 in one call, all or nothing.
 */
export interface SettlementDeps {
  storage: StoragePort;
  clock: Clock;
  assets: AssetRegistry;
}

/** A destination on the asset's chain with a valid address, normalized; or the problem. */
function checkDestination(assetId: string, destination: string, field: string): { value: string } | { issue: ValidationIssue } {
  const chain = parseAssetId(assetId)!.chain;
  const account = parseAccountId(destination);
  if (!account) return { issue: { field, message: 'must be a CAIP-10 account id' } };
  if (!sameChain(account.chain, chain)) return { issue: { field, message: `must be on the asset's chain ${formatChainId(chain)}` } };
  const problem = addressProblem(account.chain.namespace, account.address);
  if (problem) return { issue: { field, message: `address ${problem}` } };
  return { value: `${formatChainId(account.chain)}:${normalizeAddress(account.chain.namespace, account.address)}` };
}

/** The partner's merchant, not deleted; 404 otherwise. */
async function liveMerchant(deps: Pick<SettlementDeps, 'storage'>, partnerId: string, merchantId: string): Promise<MerchantRecord> {
  const merchant = await deps.storage.merchants.get(partnerId, merchantId);
  if (!merchant) throw notFound('No merchant with this id');
  return merchant;
}

export async function listSettlements(deps: Pick<SettlementDeps, 'storage'>, partnerId: string, merchantId: string): Promise<CryptoSettlementRecord[]> {
  await liveMerchant(deps, partnerId, merchantId);
  return deps.storage.settlements.listByMerchant(partnerId, merchantId);
}

/**
 * Registers settlements, all or nothing: 400 naming each entry whose asset or destination breaks
 * a rule; 409 `settlement_asset_conflict` for an asset twice in the request or already registered.
 * `idempotency` builds the caller's idempotency record from the new records, written in the same unit.
 */
export async function registerSettlements(
  deps: SettlementDeps,
  partnerId: string,
  merchantId: string,
  requested: ReadonlyArray<{ asset: string; destination: string }>,
  opts: { idempotency?: (records: CryptoSettlementRecord[]) => IdempotencyCompletion } = {},
): Promise<CryptoSettlementRecord[]> {
  await liveMerchant(deps, partnerId, merchantId);
  const issues: ValidationIssue[] = [];
  const entries: Array<{ asset: string; destination: string }> = [];
  requested.forEach((s, i) => {
    const asset = canonicalAssetId(deps.assets, s.asset);
    if (!asset) {
      issues.push({ field: `settlements[${i}].asset`, message: 'is not an asset this service settles in (see the asset registry)' });
      return;
    }
    const dest = checkDestination(asset, s.destination, `settlements[${i}].destination`);
    if ('issue' in dest) issues.push(dest.issue);
    else entries.push({ asset, destination: dest.value });
  });
  if (issues.length) throw validationError(issues);
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.asset)) throw new AppError('settlement_asset_conflict', `Asset ${e.asset} appears more than once in this request`, { details: { asset: e.asset } });
    seen.add(e.asset);
  }
  const now = deps.clock.now();
  const ids = newIds('cryptoSettlement', entries.length, now);
  const records = entries.map((e, i) => ({ id: ids[i]!, partnerId, merchantId, asset: e.asset, destination: e.destination, createdAt: new Date(now) }));
  const result = await deps.storage.settlements.createMany(partnerId, merchantId, records, opts.idempotency?.(records));
  if (!result.ok && result.reason === 'merchant_not_found') throw notFound('No merchant with this id');
  if (!result.ok && result.reason === 'asset_conflict') {
    throw new AppError('settlement_asset_conflict', `A settlement for ${result.asset} is already registered for this merchant`, { details: { asset: result.asset } });
  }
  return records;
}

/** Moves a settlement to another destination on the same asset's chain. */
export async function changeSettlementDestination(
  deps: Pick<SettlementDeps, 'storage'>,
  partnerId: string,
  merchantId: string,
  id: string,
  destination: string,
): Promise<CryptoSettlementRecord> {
  await liveMerchant(deps, partnerId, merchantId);
  const existing = await deps.storage.settlements.get(partnerId, merchantId, id);
  if (!existing) throw notFound('No settlement with this id');
  const dest = checkDestination(existing.asset, destination, 'destination');
  if ('issue' in dest) throw validationError([dest.issue]);
  const updated = await deps.storage.settlements.updateDestination(partnerId, merchantId, id, dest.value);
  if (!updated) throw notFound('No settlement with this id');
  return updated;
}

export async function removeSettlement(deps: Pick<SettlementDeps, 'storage'>, partnerId: string, merchantId: string, id: string): Promise<void> {
  await liveMerchant(deps, partnerId, merchantId);
  if (!(await deps.storage.settlements.delete(partnerId, merchantId, id))) throw notFound('No settlement with this id');
}
