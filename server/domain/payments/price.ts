import { canonicalAssetId, maxTransferAmount, type AssetInfo, type AssetRegistry } from '../assets.ts';
import { currencyExponent } from '../currencies.ts';
import type { PricePort } from '../prices.ts';
import type { ValidationIssue } from '../../errors.ts';

/**
 * What a payment is priced in, as the partner asked: a fiat currency (converted to the buyer's
 * token when options are quoted) or one token (paid exactly, in that token only, with no FX).
 * `value` is in the unit's smallest units: the currency's minor units, or the token's base units.
 */
export type PaymentPrice = { kind: 'fiat'; currency: string; value: bigint } | { kind: 'token'; asset: string; value: bigint };

const FIAT_PREFIX = 'iso4217/';
const TOKEN_PREFIX = 'caip19/';

/** Fiat prices stay within 18 digits of minor units, as they always have; tokens are bounded per chain. */
const MAX_FIAT_MINOR = 10n ** 18n - 1n;

/** The wire unit of a price: `iso4217/<code>` or `caip19/<asset id>`. */
export function priceUnit(price: PaymentPrice): string {
  return price.kind === 'fiat' ? `${FIAT_PREFIX}${price.currency}` : `${TOKEN_PREFIX}${price.asset}`;
}

/**
 * A create request's `amount` as a price, or the issues that refuse it. The value is already an
 * integer string (the schema's pattern); here are the rules the schema cannot state: a currency we
 * know, an asset this deployment lists (its id in the registry's spelling, whatever the letter case
 * of an EVM token address), and an amount its chain can carry in one transfer.
 */
export function readPrice(amount: { unit: string; value: string }, assets: AssetRegistry): { price: PaymentPrice } | { issues: ValidationIssue[] } {
  const value = BigInt(amount.value);
  if (value <= 0n) return { issues: [{ field: 'amount.value', message: 'must be a positive integer in the unit’s minor (base) units' }] };
  if (amount.unit.startsWith(TOKEN_PREFIX)) {
    const asset = canonicalAssetId(assets, amount.unit.slice(TOKEN_PREFIX.length));
    const info = asset ? assets.get(asset) : undefined;
    if (!asset || !info) return { issues: [{ field: 'amount.unit', message: `asset ${amount.unit.slice(TOKEN_PREFIX.length)} is not supported by this service` }] };
    const max = maxTransferAmount(info);
    if (value > max) return { issues: [{ field: 'amount.value', message: `must be at most ${max} base units of ${info.symbol}: more than one transfer on its chain can carry` }] };
    return { price: { kind: 'token', asset, value } };
  }
  const currency = amount.unit.slice(FIAT_PREFIX.length);
  if (!amount.unit.startsWith(FIAT_PREFIX) || currencyExponent(currency) === undefined)
    return { issues: [{ field: 'amount.unit', message: `currency ${currency} is not supported` }] };
  if (value > MAX_FIAT_MINOR) return { issues: [{ field: 'amount.value', message: 'must be at most 18 digits in the currency’s minor units' }] };
  return { price: { kind: 'fiat', currency, value } };
}

/**
 * What the buyer owes in `asset`, in its base units, or null when that asset cannot pay this price.
 * The one place that decides it: a token price is owed exactly, and only in its own asset; a fiat
 * price is converted by the price port (rounded up, so the merchant never receives less).
 */
export function amountOwed(price: PaymentPrice, asset: AssetInfo, prices: PricePort): bigint | null {
  if (price.kind === 'token') return price.asset === asset.id ? price.value : null;
  return prices.tokenAmount(price.currency, price.value, asset);
}
