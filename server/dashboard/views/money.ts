import type { AssetRegistry } from '../../domain/assets.ts';
import { formatMinor } from '../../domain/currencies.ts';
import type { PaymentRecord } from '../../domain/payments/records.ts';
import { assetAmount, priceAmount, tokenAmount } from '../../domain/payments/view.ts';

/**
 * An amount as people read it: at least the cents ("12.50 USD", "12.50 USDC"), and every digit
 * that is not a trailing zero ("0.000001 USDC" stays exact). Base units are never rounded away.
 */
export function displayAmount(value: bigint, decimals: number): string {
  const exact = formatMinor(value, decimals);
  if (decimals <= 2) return exact;
  const [whole, fraction] = exact.split('.') as [string, string];
  return `${whole}.${fraction.replace(/0+$/, '').padEnd(2, '0')}`;
}

const readable = (a: { value: string; display: { assetSymbol: string; decimals: number } }) => `${displayAmount(BigInt(a.value), a.display.decimals)} ${a.display.assetSymbol}`;

/** The price as the partner set it. */
export const priceText = (p: PaymentRecord, assets: AssetRegistry) => readable(priceAmount(p, assets));

/** What the buyer paid (or owes, for a token price), once known; '' otherwise. */
export function paidText(p: PaymentRecord, assets: AssetRegistry): string {
  const paid = tokenAmount(p, assets);
  return paid ? readable(paid) : '';
}

/** `value` base units of a CAIP-19 asset as people read it ("7.00 USDT"). */
export const assetText = (asset: string, value: bigint, assets: AssetRegistry) => readable(assetAmount(asset, value, assets));
