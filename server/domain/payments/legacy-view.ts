import type { AssetRegistry } from '../assets.ts';
import { parseChainId } from '../caip.ts';
import type { PaymentRecord } from './records.ts';
import { isFinal } from './state-machine.ts';
import { effectiveStatus } from './view.ts';
import { listStatus } from './wire-versions.ts';

/**
 * The deprecated per-merchant list (`GET /v1/merchants/{merchant_id}/payments`) in its original
 * snake_case shape, so integrations written against it keep working until they move: token
 * amounts in base units beside their decimals, fiat amounts as integer minor units.
 */

const INT32_MAX = 2_147_483_647;

/** Minor units as the legacy integer, or null where a 32-bit integer cannot hold them. */
const int32OrNull = (v: bigint) => (v <= BigInt(INT32_MAX) ? Number(v) : null);

export function legacyPaymentView(p: PaymentRecord, assets: AssetRegistry, now: number) {
  const status = listStatus(effectiveStatus(p, now), 'legacy');
  const asset = p.asset ? assets.get(p.asset) : undefined;
  const settled = p.status === 'succeeded' && p.txId !== null;
  return {
    payment_id: p.id,
    merchant_id: p.merchantId,
    reference_id: p.referenceId,
    status: status as Exclude<typeof status, 'cancelled'>,
    is_terminal: isFinal(status),
    wallet_name: p.buyerProviderName ?? '',
    chain_id: p.network ? (parseChainId(p.network)?.reference ?? p.network) : null,
    buyer_caip10: p.buyerAccount,
    token_caip19: p.asset,
    tx_hash: p.txId,
    nonce: null,
    token_amount: p.tokenValue?.toString() ?? null,
    // A token-priced payment has no fiat amount to report.
    fiat_amount: p.price.kind === 'fiat' ? int32OrNull(p.price.value) : null,
    fiat_currency: p.price.kind === 'fiat' ? p.price.currency : null,
    created_at: p.createdAt.toISOString(),
    last_updated_at: p.updatedAt.toISOString(),
    settled_at: settled && p.succeededAt ? p.succeededAt.toISOString() : null,
    settlement_status: settled ? 'settled' : null,
    settlement_tx_hash: settled ? p.txId : null,
    token_symbol: asset?.symbol ?? null,
    token_decimals: asset?.decimals ?? null,
    token_logo: asset?.iconUrl ?? null,
    chain_logo: asset?.networkIconUrl ?? null,
    wallet_logo: p.buyerProviderIcon ?? null,
  };
}

type Stats = { totalRevenue: Array<{ amount: number; currency: string }>; totalTransactions: number; totalCustomers: number };

/**
 * The legacy stats name one revenue figure: USD when the merchant took any, else the first
 * currency by code (figures in different currencies cannot be added without a rate).
 */
export function legacyStats(s: Stats) {
  const revenue = s.totalRevenue.find((r) => r.currency === 'USD') ?? [...s.totalRevenue].sort((a, b) => (a.currency < b.currency ? -1 : 1))[0] ?? { amount: 0, currency: 'USD' };
  return {
    total_customers: Math.min(s.totalCustomers, INT32_MAX),
    total_revenue: { amount: revenue.amount, currency: revenue.currency },
    total_transactions: Math.min(s.totalTransactions, INT32_MAX),
  };
}
