import type { MerchantRecord } from '../../../server/domain/merchants/records.ts';
import type { NewJob } from '../../../server/domain/jobs/records.ts';
import type { PaymentRecord } from '../../../server/domain/payments/records.ts';
import type { PaymentStatus } from '../../../server/domain/payments/state-machine.ts';
import type { WebhookEndpointRecord } from '../../../server/domain/webhooks/records.ts';
import type { StoragePort } from '../../../server/ports/storage/index.ts';
import { newId } from '../../../server/domain/ids.ts';
import { newPayment } from '../../../server/domain/payments/create-payment.ts';
import { createAssetRegistry } from '../../../server/domain/assets.ts';
import { t0 } from './store-fixtures.ts';

/** Tokens the conformance payments may be priced in (prices of up to 78 digits are base units). */
export const TOKEN_A = 'eip155:1/erc20:0xa';
export const TOKEN_B = 'eip155:1/erc20:0xb';
export const assets = createAssetRegistry(
  [TOKEN_A, TOKEN_B].map((id) => ({ id, symbol: 'T', name: 'Token', decimals: 18, flows: ['transfer' as const], networkName: 'Ethereum' })),
);
const limits = { defaultTtlS: 300, maxTtlS: 3600 };

/** The event data the conformance creates write: what the adapter handed the builder, so a test can see it. */
export const seenBy = (p: PaymentRecord, m: MerchantRecord) => ({ ref: p.referenceId, merchant: { id: m.id, name: m.name, iconUrl: m.iconUrl } });

/**
 * Partners, merchants and payments for the payment, job and webhook suites, on one store. Each
 * merchant gets its own millisecond so "newest first" is defined (ids of one millisecond sort at
 * random among themselves).
 */
export function paymentFixtures(store: () => StoragePort) {
  let made = 0;
  const s = () => store();
  async function partner(defaultVersion = '2026-02-18') {
    const p = { id: newId('partner'), name: 'P', defaultVersion, createdAt: t0 };
    await s().partners.create(p);
    return p;
  }
  async function merchant(partnerId: string, opts: { name?: string; settle?: string[]; iconUrl?: string | null } = {}): Promise<MerchantRecord> {
    const m: MerchantRecord = {
      id: newId('merchant', t0.getTime() + ++made),
      partnerId,
      name: opts.name ?? 'M',
      email: 'm@x.co',
      iconUrl: opts.iconUrl ?? null,
      status: 'active',
      createdAt: t0,
      deletedAt: null,
    };
    await s().merchants.create(m);
    const settle = opts.settle ?? [TOKEN_A];
    if (settle.length) {
      await s().settlements.createMany(
        partnerId,
        m.id,
        settle.map((asset) => ({ id: newId('cryptoSettlement'), partnerId, merchantId: m.id, asset, destination: 'eip155:1:0x1', createdAt: t0 })),
      );
    }
    return m;
  }
  /** A payment (not yet stored) of this merchant; `unit` defaults to US dollars. */
  function payment(m: Pick<MerchantRecord, 'id' | 'partnerId'>, o: { unit?: string; value?: string; ref?: string; at?: number } = {}): PaymentRecord {
    return newPayment(
      { partnerId: m.partnerId, merchantId: m.id, amount: { unit: o.unit ?? 'iso4217/USD', value: o.value ?? '1050' }, referenceId: o.ref ?? 'r', expiresAt: null },
      o.at ?? t0.getTime(),
      limits,
      { assets },
    );
  }
  /** Stores the payment with a created event built by `seenBy`, and these jobs. */
  function create(p: PaymentRecord, jobs: NewJob[] = [], idempotency?: { key: string; body: unknown }) {
    return s().payments.create(p, {
      event: { id: newId('event'), type: 'payment.created', snapshot: seenBy },
      jobs,
      ...(idempotency ? { idempotency: { partnerId: p.partnerId, key: idempotency.key, statusCode: 201, body: idempotency.body } } : {}),
    });
  }
  /** A stored payment of this merchant. */
  async function stored(m: Pick<MerchantRecord, 'id' | 'partnerId'>, o: Parameters<typeof payment>[1] = {}) {
    const p = payment(m, o);
    const r = await create(p);
    if (!r.ok) throw new Error(`fixture payment not created: ${r.reason}`);
    return p;
  }
  /** Moves a payment from any state to `to`, patching it, with an event whose data names the state. */
  function move(
    id: string,
    to: PaymentStatus,
    patch: Parameters<StoragePort['payments']['transition']>[1]['patch'] = {},
    from: PaymentStatus[] = ['requires_action', 'processing'],
  ) {
    return s().payments.transition(id, {
      from,
      to,
      patch,
      at: t0,
      event: { id: newId('event'), type: `payment.${to}`, snapshot: (x) => ({ status: x.status, v: x.stateVersion }) },
    });
  }
  return { partner, merchant, payment, create, stored, move };
}

/** A webhook endpoint of this partner, subscribed to `payment.created`, created at `atMs` (ids sort by it). */
export const endpointOf = (partnerId: string, o: Partial<WebhookEndpointRecord> = {}, atMs = t0.getTime()): WebhookEndpointRecord => ({
  id: newId('webhookEndpoint', atMs),
  partnerId,
  url: 'https://hooks.example.com/in',
  enabledEvents: ['payment.created'],
  enabled: true,
  disabledReason: null,
  secret: 'whsec_x',
  previousSecret: null,
  previousSecretExpiresAt: null,
  createdAt: new Date(atMs),
  updatedAt: new Date(atMs),
  deletedAt: null,
  ...o,
});
