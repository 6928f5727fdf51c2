import type { CryptoSettlement, CryptoSettlementInput, Deleted, SettlementList } from '../contract.ts';
import { unwrap, type HelperContext, type IdempotencyOptions } from '../unwrap.ts';

export interface SettlementsApi {
  /** Registers crypto destinations (one per asset, all or none); always idempotent, so retried safely. */
  create(merchantId: string, entries: CryptoSettlementInput[], options?: IdempotencyOptions): Promise<CryptoSettlement[]>;
  /** The merchant's crypto and fiat destinations. */
  list(merchantId: string): Promise<SettlementList>;
  /** Points a settlement at another account on the same chain. */
  update(merchantId: string, settlementId: string, destination: string): Promise<CryptoSettlement>;
  /** Removes a settlement; later payments are not offered in its asset. */
  delete(merchantId: string, settlementId: string): Promise<Deleted>;
}

/** Settlement helpers: the service requires an Idempotency-Key on creation, so one is always sent. */
export function settlementsApi({ raw, newIdempotencyKey }: HelperContext): SettlementsApi {
  const one = (merchantId: string, id: string) => ({ params: { path: { merchantId, id } } });
  return {
    async create(merchantId, entries, options = {}) {
      const header = { 'Idempotency-Key': options.idempotencyKey ?? newIdempotencyKey() };
      const r = await unwrap(raw.POST('/v1/merchants/{merchantId}/settlements/crypto', { params: { path: { merchantId }, header }, body: { settlements: entries } }));
      return r.settlements;
    },
    list: (merchantId) => unwrap(raw.GET('/v1/merchants/{merchantId}/settlements', { params: { path: { merchantId } } })),
    update: (merchantId, id, destination) => unwrap(raw.PUT('/v1/merchants/{merchantId}/settlements/crypto/{id}', { ...one(merchantId, id), body: { destination } })),
    delete: (merchantId, id) => unwrap(raw.DELETE('/v1/merchants/{merchantId}/settlements/crypto/{id}', one(merchantId, id))),
  };
}
