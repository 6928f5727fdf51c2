import { partnerOf } from '../http/context.ts';
import type { OperationHandlers } from '../http/operations.ts';
import { changeSettlementDestination, listSettlements, registerSettlements, removeSettlement, type SettlementDeps } from '../domain/merchants/settlements.ts';
import { settlementView } from './presenters.ts';
import { auditApiAction } from './api-audit.ts';

export type SettlementHandlerDeps = SettlementDeps;

type SettlementOps = 'listSettlements' | 'createCryptoSettlements' | 'updateCryptoSettlement' | 'deleteCryptoSettlement';

/** HTTP ↔ the settlement use cases (server/domain/merchants/settlements.ts). */
export function settlementHandlers(deps: SettlementHandlerDeps): Pick<OperationHandlers, SettlementOps> {
  return {
    async listSettlements({ path, ctx }) {
      const crypto = await listSettlements(deps, partnerOf(ctx).id, path.merchantId);
      return { status: 200, body: { crypto: crypto.map(settlementView), fiat: [] } };
    },

    async createCryptoSettlements({ path, body, ctx }) {
      const idempotency = ctx.idempotency;
      const records = await registerSettlements(
        deps,
        partnerOf(ctx).id,
        path.merchantId,
        body.settlements,
        idempotency ? { idempotency: (r) => idempotency.completeWith(201, { settlements: r.map(settlementView) }) } : {},
      );
      for (const r of records)
        await auditApiAction(deps, ctx, 'settlement.add', { type: 'settlement', id: r.id }, { merchantId: r.merchantId, asset: r.asset, destination: r.destination });
      return { status: 201, body: { settlements: records.map(settlementView) } };
    },

    async updateCryptoSettlement({ path, body, ctx }) {
      const updated = await changeSettlementDestination(deps, partnerOf(ctx).id, path.merchantId, path.id, body.destination);
      await auditApiAction(
        deps,
        ctx,
        'settlement.change',
        { type: 'settlement', id: updated.id },
        { merchantId: updated.merchantId, asset: updated.asset, destination: updated.destination },
      );
      return { status: 200, body: settlementView(updated) };
    },

    async deleteCryptoSettlement({ path, ctx }) {
      await removeSettlement(deps, partnerOf(ctx).id, path.merchantId, path.id);
      await auditApiAction(deps, ctx, 'settlement.remove', { type: 'settlement', id: path.id }, { merchantId: path.merchantId });
      return { status: 200, body: { id: path.id, deleted: true } };
    },
  };
}
