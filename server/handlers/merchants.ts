import { partnerOf } from '../http/context.ts';
import type { OperationHandlers } from '../http/operations.ts';
import { auditApiAction } from './api-audit.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { merchantSummary, merchantView as baseView, settlementView } from './presenters.ts';
import type { MerchantRecord } from '../domain/merchants/records.ts';
import { createMerchant, deleteMerchant, merchantWithSettlements, updateMerchant, type MerchantDeps } from '../domain/merchants/merchants.ts';

/** A merchant as answered, with its data-collection setting (null when buyers are never asked). */
const merchantView = (m: MerchantRecord) => ({ ...baseView(m), dataCollection: m.dataCollection ?? null });

export type MerchantHandlerDeps = MerchantDeps;

type MerchantOps = 'createMerchant' | 'listMerchants' | 'getMerchant' | 'updateMerchant' | 'deleteMerchant';

export function merchantHandlers(deps: MerchantHandlerDeps): Pick<OperationHandlers, MerchantOps> {
  const { storage } = deps;

  return {
    async createMerchant({ body, ctx }) {
      const fields = { name: body.merchantName, email: body.merchantEmail, iconUrl: body.iconUrl ?? null, dataCollection: body.dataCollection ?? null };
      const idempotency = ctx.idempotency;
      const merchant = await createMerchant(
        deps,
        partnerOf(ctx).id,
        fields,
        idempotency ? { idempotency: (m) => idempotency.completeWith(201, { merchant: merchantSummary(m) }) } : {},
      );
      await auditApiAction(deps, ctx, 'merchant.create', { type: 'merchant', id: merchant.id }, { name: merchant.name });
      return { status: 201, body: { merchant: merchantSummary(merchant) } };
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
      const { merchant, settlements } = await merchantWithSettlements(deps, partnerOf(ctx).id, path.merchantId);
      return { status: 200, body: { merchant: { ...merchantView(merchant), settlements: { crypto: settlements.map(settlementView), fiat: [] } } } };
    },

    async updateMerchant({ path, body, ctx }) {
      const updated = await updateMerchant(deps, partnerOf(ctx).id, path.merchantId, {
        ...(body.merchantName !== undefined ? { name: body.merchantName } : {}),
        ...(body.merchantEmail !== undefined ? { email: body.merchantEmail } : {}),
        ...(body.iconUrl !== undefined ? { iconUrl: body.iconUrl } : {}),
        ...(body.dataCollection !== undefined ? { dataCollection: body.dataCollection } : {}),
      });
      await auditApiAction(deps, ctx, 'merchant.update', { type: 'merchant', id: updated.id }, { fields: Object.keys(body).sort().join(' ') });
      return { status: 200, body: { merchant: merchantView(updated) } };
    },

    async deleteMerchant({ path, ctx }) {
      const deleted = await deleteMerchant(deps, partnerOf(ctx).id, path.merchantId);
      await auditApiAction(deps, ctx, 'merchant.delete', { type: 'merchant', id: deleted.id }, { name: deleted.name });
      return { status: 200, body: { id: deleted.id, deleted: true } };
    },
  };
}
