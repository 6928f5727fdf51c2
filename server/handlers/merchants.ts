import { notFound, validationError } from '../errors.ts';
import { newId } from '../domain/ids.ts';
import { currencyExponent } from '../domain/currencies.ts';
import type { Clock } from '../ports/clock.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import type { MerchantRecord } from '../domain/merchants/records.ts';
import { partnerOf } from '../http/context.ts';
import type { OperationHandlers } from '../http/operations.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { merchantSummary, merchantView as baseView, settlementView } from './presenters.ts';
import type { DataCollectionConfig } from '../domain/collect-data/schema.ts';

/** A merchant as answered, with its data-collection setting (null when buyers are never asked). */
const merchantView = (m: MerchantRecord) => ({ ...baseView(m), dataCollection: m.dataCollection ?? null });

/** The setting as stored: a minimum amount in a currency the service knows. */
function dataCollectionOf(input: DataCollectionConfig | null | undefined): DataCollectionConfig | null | undefined {
  if (input === undefined || input === null) return input;
  const min = input.minAmount;
  if (min && currencyExponent(min.unit.slice('iso4217/'.length)) === undefined) {
    throw validationError([{ field: 'dataCollection.minAmount.unit', message: 'is not a supported currency' }]);
  }
  return { minAmount: min ? { unit: min.unit, value: min.value } : null };
}

export interface MerchantHandlerDeps {
  storage: StoragePort;
  clock: Clock;
  /** Checks a logo URL; answers one message per problem, none when acceptable. */
  checkLogo?: (url: string) => Promise<string[]>;
}

type MerchantOps = 'createMerchant' | 'listMerchants' | 'getMerchant' | 'updateMerchant' | 'deleteMerchant';

export function merchantHandlers(deps: MerchantHandlerDeps): Pick<OperationHandlers, MerchantOps> {
  const { storage, clock } = deps;

  async function assertLogo(iconUrl: string | null | undefined) {
    if (!iconUrl || !deps.checkLogo) return;
    const problems = await deps.checkLogo(iconUrl);
    if (problems.length) throw validationError(problems.map((message) => ({ field: 'iconUrl', message })), 'The logo at iconUrl is not acceptable');
  }

  return {
    async createMerchant({ body, ctx }) {
      const partner = partnerOf(ctx);
      await assertLogo(body.iconUrl);
      const now = clock.now();
      const merchant = {
        id: newId('merchant', now),
        partnerId: partner.id,
        name: body.merchantName,
        email: body.merchantEmail,
        iconUrl: body.iconUrl ?? null,
        status: 'active' as const,
        createdAt: new Date(now),
        deletedAt: null,
        dataCollection: dataCollectionOf(body.dataCollection) ?? null,
      };
      const response = { merchant: merchantSummary(merchant) };
      await storage.merchants.create(merchant, ctx.idempotency?.completeWith(201, response));
      return { status: 201, body: response };
    },

    async listMerchants({ query, ctx }) {
      const partner = partnerOf(ctx);
      const limit = query.limit ?? 20;
      const after = decodeCursor(query.cursor, ['before'] as const);
      const { items, totalCount } = await storage.merchants.list(partner.id, {
        ...(query.status ? { status: query.status } : {}),
        ...(query.search ? { search: query.search } : {}),
        ...(after ? { beforeId: after.before } : {}),
        limit: limit + 1,
      });
      const page = items.slice(0, limit);
      const last = page[page.length - 1];
      return {
        status: 200,
        body: { data: page.map(merchantView), nextCursor: items.length > limit && last ? encodeCursor({ before: last.id }) : null, totalCount },
      };
    },

    async getMerchant({ path, ctx }) {
      const partner = partnerOf(ctx);
      const merchant = await storage.merchants.get(partner.id, path.merchantId);
      if (!merchant) throw notFound('No merchant with this id');
      const crypto = await storage.settlements.listByMerchant(partner.id, merchant.id);
      return { status: 200, body: { merchant: { ...merchantView(merchant), settlements: { crypto: crypto.map(settlementView), fiat: [] } } } };
    },

    async updateMerchant({ path, body, ctx }) {
      const partner = partnerOf(ctx);
      if (body.merchantName === undefined && body.merchantEmail === undefined && body.iconUrl === undefined && body.dataCollection === undefined) {
        throw validationError([{ field: 'body', message: 'give at least one of merchantName, merchantEmail, iconUrl, dataCollection' }]);
      }
      const dataCollection = dataCollectionOf(body.dataCollection);
      if (!(await storage.merchants.get(partner.id, path.merchantId))) throw notFound('No merchant with this id');
      await assertLogo(body.iconUrl);
      const updated = await storage.merchants.update(partner.id, path.merchantId, {
        ...(body.merchantName !== undefined ? { name: body.merchantName } : {}),
        ...(body.merchantEmail !== undefined ? { email: body.merchantEmail } : {}),
        ...(body.iconUrl !== undefined ? { iconUrl: body.iconUrl } : {}),
        ...(dataCollection !== undefined ? { dataCollection } : {}),
      });
      if (!updated) throw notFound('No merchant with this id');
      return { status: 200, body: { merchant: merchantView(updated) } };
    },

    async deleteMerchant({ path, ctx }) {
      const partner = partnerOf(ctx);
      const deleted = await storage.merchants.softDelete(partner.id, path.merchantId, new Date(clock.now()));
      if (!deleted) throw notFound('No merchant with this id');
      return { status: 200, body: { id: deleted.id, deleted: true } };
    },
  };
}
