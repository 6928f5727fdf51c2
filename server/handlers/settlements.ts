import { AppError, notFound, validationError, type ValidationIssue } from '../errors.ts';
import { newIds } from '../domain/ids.ts';
import { addressProblem, normalizeAddress, parseAccountId, parseAssetId, sameChain, formatChainId } from '../domain/caip.ts';
import { canonicalAssetId as canonicalAsset, type AssetRegistry } from '../domain/assets.ts';
import type { Clock } from '../ports/clock.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import { partnerOf } from '../http/context.ts';
import type { OperationHandlers } from '../http/operations.ts';
import { settlementView } from './presenters.ts';

export interface SettlementHandlerDeps {
  storage: StoragePort;
  clock: Clock;
  assets: AssetRegistry;
}

type SettlementOps = 'listSettlements' | 'createCryptoSettlements' | 'updateCryptoSettlement' | 'deleteCryptoSettlement';

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

export function settlementHandlers(deps: SettlementHandlerDeps): Pick<OperationHandlers, SettlementOps> {
  const { storage, clock, assets } = deps;

  async function liveMerchant(partnerId: string, merchantId: string) {
    const merchant = await storage.merchants.get(partnerId, merchantId);
    if (!merchant) throw notFound('No merchant with this id');
    return merchant;
  }

  return {
    async listSettlements({ path, ctx }) {
      const partner = partnerOf(ctx);
      await liveMerchant(partner.id, path.merchantId);
      const crypto = await storage.settlements.listByMerchant(partner.id, path.merchantId);
      return { status: 200, body: { crypto: crypto.map(settlementView), fiat: [] } };
    },

    async createCryptoSettlements({ path, body, ctx }) {
      const partner = partnerOf(ctx);
      await liveMerchant(partner.id, path.merchantId);
      const issues: ValidationIssue[] = [];
      const entries: Array<{ asset: string; destination: string }> = [];
      body.settlements.forEach((s, i) => {
        const asset = canonicalAsset(assets, s.asset);
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
      const now = clock.now();
      const ids = newIds('cryptoSettlement', entries.length, now);
      const records = entries.map((e, i) => ({
        id: ids[i]!,
        partnerId: partner.id,
        merchantId: path.merchantId,
        asset: e.asset,
        destination: e.destination,
        createdAt: new Date(now),
      }));
      const response = { settlements: records.map(settlementView) };
      const result = await storage.settlements.createMany(partner.id, path.merchantId, records, ctx.idempotency?.completeWith(201, response));
      if (!result.ok && result.reason === 'merchant_not_found') throw notFound('No merchant with this id');
      if (!result.ok && result.reason === 'asset_conflict') {
        throw new AppError('settlement_asset_conflict', `A settlement for ${result.asset} is already registered for this merchant`, { details: { asset: result.asset } });
      }
      return { status: 201, body: response };
    },

    async updateCryptoSettlement({ path, body, ctx }) {
      const partner = partnerOf(ctx);
      await liveMerchant(partner.id, path.merchantId);
      const existing = await storage.settlements.get(partner.id, path.merchantId, path.id);
      if (!existing) throw notFound('No settlement with this id');
      const dest = checkDestination(existing.asset, body.destination, 'destination');
      if ('issue' in dest) throw validationError([dest.issue]);
      const updated = await storage.settlements.updateDestination(partner.id, path.merchantId, path.id, dest.value);
      if (!updated) throw notFound('No settlement with this id');
      return { status: 200, body: settlementView(updated) };
    },

    async deleteCryptoSettlement({ path, ctx }) {
      const partner = partnerOf(ctx);
      await liveMerchant(partner.id, path.merchantId);
      if (!(await storage.settlements.delete(partner.id, path.merchantId, path.id))) throw notFound('No settlement with this id');
      return { status: 200, body: { id: path.id, deleted: true } };
    },
  };
}
