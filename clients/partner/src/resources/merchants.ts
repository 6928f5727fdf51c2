import type {
  components,
  CreateMerchantInput,
  Deleted,
  ListMerchantsQuery,
  Merchant,
  MerchantList,
  MerchantSummary,
  MerchantWithSettlements,
  UpdateMerchantInput,
} from '../contract.ts';
import { paginate, unwrap, type HelperContext, type IdempotencyOptions } from '../unwrap.ts';

export interface MerchantsApi {
  /** Creates a merchant; retried safely because an Idempotency-Key is always sent (generated when absent). */
  create(body: CreateMerchantInput, options?: IdempotencyOptions): Promise<MerchantSummary>;
  /** Changes name, email or logo; `iconUrl: null` removes the logo. */
  update(merchantId: string, body: UpdateMerchantInput): Promise<Merchant>;
  /** The profile with its settlement destinations. */
  get(merchantId: string): Promise<MerchantWithSettlements>;
  /** One page; pass `nextCursor` back as `cursor` for the next. */
  list(query?: ListMerchantsQuery): Promise<MerchantList>;
  /** Every merchant matching the filters, fetching pages as the loop asks for them. */
  listAll(query?: ListMerchantsQuery): AsyncGenerator<Merchant, void, undefined>;
  /** Soft delete; repeating it answers the same. */
  delete(merchantId: string): Promise<Deleted>;
}

/** Merchant helpers over the raw client: unwrapped bodies, thrown ApiErrors, idempotent creation. */
export function merchantsApi({ raw, newIdempotencyKey }: HelperContext): MerchantsApi {
  const list = (query: ListMerchantsQuery = {}): Promise<MerchantList> => unwrap(raw.GET('/v1/merchants', { params: { query } }));
  return {
    async create(body, options = {}) {
      const key = options.idempotencyKey ?? newIdempotencyKey();
      // The generated request type requires iconUrl only because it has a default; the service does not.
      const wire = body as components['schemas']['CreateMerchantRequest'];
      const r = await unwrap(raw.POST('/v1/merchants', { params: { header: { 'Idempotency-Key': key } }, body: wire }));
      return r.merchant;
    },
    async update(merchantId, body) {
      return (await unwrap(raw.PATCH('/v1/merchants/{merchantId}', { params: { path: { merchantId } }, body }))).merchant;
    },
    async get(merchantId) {
      return (await unwrap(raw.GET('/v1/merchants/{merchantId}', { params: { path: { merchantId } } }))).merchant;
    },
    list,
    listAll: (query = {}) => paginate(list, query),
    delete: (merchantId) => unwrap(raw.DELETE('/v1/merchants/{merchantId}', { params: { path: { merchantId } } })),
  };
}
