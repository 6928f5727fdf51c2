import type { AssetRegistry } from '../domain/assets.ts';
import { currencyExponent, formatMinor } from '../domain/currencies.ts';
import { statusView } from '../domain/payments/view.ts';
import { DEFAULT_API_VERSION } from '../http/versions.ts';
import type { Clock } from '../ports/clock.ts';
import type { PaymentRecord } from '../domain/payments/records.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import type { CryptoSettlementRecord, MerchantRecord } from '../domain/merchants/records.ts';
import { amountOwed } from '../domain/payments/price.ts';
import { createPriceTable, type PricePort } from '../domain/prices.ts';

export interface PageDeps {
  storage: StoragePort;
  clock: Clock;
  assets: AssetRegistry;
  /** Base of buyer links: the page of a payment is `{payBaseUrl}/<id>`. */
  payBaseUrl: string;
  /** Fiat → token rates, as the gateway quotes with; absent: pegged assets at par only. */
  prices?: PricePort;
}

/**
 * What the public payment page shows, and nothing more: anyone holding the link may read it,
 * so it leaves out the partner, the reference, the buyer and anything of other payments.
 */
export interface PaymentPageData {
  paymentId: string;
  link: string;
  merchant: { name: string; iconUrl: string | null };
  /** e.g. "$10.50" in the payment's currency, or "10.5 USDC" for a payment priced in a token. */
  amountText: string;
  /** `chain`: the CAIP-2 id the asset lives on (the browser wallet connects to those chains). */
  accepted: Array<{ symbol: string; network: string; chain: string }>;
  /**
   * Waiting for payment, yet no asset the merchant accepts can pay this price (no settlement
   * left, or a fiat currency nothing converts to): no wallet will be offered an option, so the
   * page says so instead of "Waiting for payment".
   */
  unpayable: boolean;
  expiresAt: number;
  state: PageState;
}

/** The live part the page polls (`GET {payPath}/<id>/state`). */
export interface PageState {
  status: string;
  isFinal: boolean;
  pollInMs: number | null;
  expiresAt: number;
  /** Server time (ms), so the countdown does not depend on the device clock. */
  now: number;
  /** Preview checkout: where the buyer goes once the payment is final. */
  redirectUrl?: string;
}

/** Minor units → "$1,050.00" (or "¥1,050"): string arithmetic, so no float ever rounds a price. */
export function formatFiat(currency: string, minor: bigint): string {
  const exp = currencyExponent(currency) ?? 2;
  const digits = minor.toString().padStart(exp + 1, '0');
  const decimal = exp ? `${digits.slice(0, -exp)}.${digits.slice(-exp)}` : digits;
  const format = new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: exp, maximumFractionDigits: exp });
  return format.format(decimal as unknown as number);
}

/** Base units → "10.5 USDC": exact, with no trailing zeros after the point. */
export function formatToken(value: bigint, decimals: number, symbol: string): string {
  const decimal = formatMinor(value, decimals)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
  return `${decimal} ${symbol}`;
}

/** The price as the page shows it: fiat in its currency's format, a token price in the token. */
function priceText(p: PaymentRecord, assets: AssetRegistry): string {
  if (p.price.kind === 'fiat') return formatFiat(p.price.currency, p.price.value);
  const a = assets.get(p.price.asset);
  return formatToken(p.price.value, a?.decimals ?? 0, a?.symbol ?? p.price.asset);
}

export function pageState(p: PaymentRecord, deps: Pick<PageDeps, 'assets' | 'clock'>): PageState {
  const now = deps.clock.now();
  const s = statusView(p, deps.assets, now, DEFAULT_API_VERSION);
  const redirectUrl = s.isFinal && p.checkout ? (s.status === 'succeeded' ? p.checkout.successUrl : p.checkout.errorUrl) : undefined;
  return { status: s.status, isFinal: s.isFinal, pollInMs: s.pollInMs, expiresAt: Math.floor(p.expiresAt.getTime() / 1000), now, ...(redirectUrl ? { redirectUrl } : {}) };
}

const PAR_ONLY = createPriceTable();

const PAYMENT_ID = /^pay_[0-9A-Za-z]{1,64}$/;

/** The payment a page path or `?pid=` names, or null (unknown, malformed). Read-only: no expiry job runs here. */
export async function findPayment(deps: PageDeps, raw: string | undefined): Promise<PaymentRecord | null> {
  if (!raw) return null;
  return PAYMENT_ID.test(raw) ? deps.storage.payments.get(raw) : null;
}

/** What one render of the page reads: the payment, its merchant (deleted or not) and the merchant's settlements. */
export interface PageRead {
  payment: PaymentRecord;
  merchant: MerchantRecord | null;
  settlements: CryptoSettlementRecord[];
}

/** The page's one read (one round trip), passed down to every part of the page; null as `findPayment`. */
export async function readPage(deps: PageDeps, raw: string | undefined): Promise<PageRead | null> {
  if (!raw || !PAYMENT_ID.test(raw)) return null;
  return deps.storage.payments.getForGateway(raw);
}

export function paymentPageData(deps: PageDeps, read: PageRead): PaymentPageData {
  const { payment: p, merchant, settlements } = read;
  const seen = new Set<string>();
  const accepted: PaymentPageData['accepted'] = [];
  const prices = deps.prices ?? PAR_ONLY;
  let canPay = false;
  // A payment priced in a token is paid in that token only, whatever else the merchant accepts.
  const payable = p.price.kind === 'token' ? settlements.filter((s) => p.price.kind === 'token' && s.asset === p.price.asset) : settlements;
  for (const s of payable) {
    const a = deps.assets.get(s.asset);
    if (!a) continue;
    if (amountOwed(p.price, a, prices) !== null) canPay = true;
    const entry = { symbol: a.symbol, network: a.networkName ?? s.asset.split('/')[0]!, chain: s.asset.split('/')[0]! };
    const key = `${entry.symbol}@${entry.network}`;
    if (seen.has(key)) continue;
    seen.add(key);
    accepted.push(entry);
  }
  const state = pageState(p, deps);
  return {
    paymentId: p.id,
    link: `${deps.payBaseUrl}/${p.id}`,
    merchant: { name: merchant?.name ?? '', iconUrl: merchant?.iconUrl ?? null },
    amountText: priceText(p, deps.assets),
    accepted,
    unpayable: state.status === 'requires_action' && !canPay,
    expiresAt: Math.floor(p.expiresAt.getTime() / 1000),
    state,
  };
}
