import type {
  CancelPaymentResponse,
  CreatePaymentInput,
  CreatePaymentResponse,
  ListMerchantPaymentsQuery,
  ListPaymentsQuery,
  Payment,
  PaymentList,
  PaymentStatusResponse,
} from '../contract.ts';
import { paginate, unwrap, type HelperContext, type IdempotencyOptions } from '../unwrap.ts';
import { waitForFinal, type WaitOptions } from '../wait-for-final.ts';

export interface PaymentsApi {
  /** Creates a payment for a merchant; an Idempotency-Key is always sent (generated when absent), so it is retried safely. */
  create(merchantId: string, body: CreatePaymentInput, options?: IdempotencyOptions): Promise<CreatePaymentResponse>;
  /**
   * Status, finality and the polling hint; reading it also expires an overdue payment. With
   * `maxPollMs` it long-polls: answered when the status changes, or after that long (30 s at most).
   */
  status(merchantId: string, paymentId: string, init?: { signal?: AbortSignal; maxPollMs?: number }): Promise<PaymentStatusResponse>;
  /** The full record: amounts, buyer, transaction, settlement, refund state. */
  get(merchantId: string, paymentId: string): Promise<Payment>;
  /** One page of the partner's payments (filter by `merchantId`, `status`, …). */
  list(query?: ListPaymentsQuery): Promise<PaymentList>;
  /** Every payment matching the filters, page by page. */
  listAll(query?: ListPaymentsQuery): AsyncGenerator<PaymentList['data'][number], void, undefined>;
  /** One page of one merchant's payments. */
  listForMerchant(merchantId: string, query?: ListMerchantPaymentsQuery): Promise<PaymentList>;
  /** Cancels an unpaid payment; anything else answers 400 `invalid_state`. Not retried (no idempotency key). */
  cancel(merchantId: string, paymentId: string): Promise<CancelPaymentResponse>;
  /** Polls status, waiting `pollInMs` between polls, until `isFinal`; resolves with the final status. */
  waitForFinal(merchantId: string, paymentId: string, options?: WaitOptions): Promise<PaymentStatusResponse>;
}

/** Payment helpers; every call names its merchant, sent as the `Merchant-Id` header. */
export function paymentsApi({ raw, newIdempotencyKey }: HelperContext): PaymentsApi {
  const one = (merchantId: string, id: string) => ({ params: { path: { id }, header: { 'Merchant-Id': merchantId } } });
  const list = (query: ListPaymentsQuery = {}): Promise<PaymentList> => unwrap(raw.GET('/v1/payments', { params: { query } }));
  const api: PaymentsApi = {
    create(merchantId, body, options = {}) {
      const header = { 'Merchant-Id': merchantId, 'Idempotency-Key': options.idempotencyKey ?? newIdempotencyKey() };
      return unwrap(raw.POST('/v1/payments', { params: { header }, body }));
    },
    status: (merchantId, id, { maxPollMs, ...init } = {}) =>
      unwrap(raw.GET('/v1/payments/{id}/status', { params: { ...one(merchantId, id).params, ...(maxPollMs === undefined ? {} : { query: { maxPollMs } }) }, ...init })),
    get: (merchantId, id) => unwrap(raw.GET('/v1/payments/{id}', one(merchantId, id))),
    list,
    listAll: (query = {}) => paginate(list, query),
    listForMerchant: (merchantId, query = {}) => unwrap(raw.GET('/v1/merchants/payments', { params: { query, header: { 'Merchant-Id': merchantId } } })),
    cancel: (merchantId, id) => unwrap(raw.POST('/v1/payments/{id}/cancel', one(merchantId, id))),
    waitForFinal: (merchantId, id, options) => waitForFinal((request) => api.status(merchantId, id, request), options),
  };
  return api;
}
