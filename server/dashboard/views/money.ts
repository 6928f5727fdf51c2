import type { AssetRegistry } from '../../domain/assets.ts';
import { formatMinor } from '../../domain/currencies.ts';
import type { PaymentRecord } from '../../domain/payments/records.ts';
import { priceAmount, tokenAmount } from '../../domain/payments/view.ts';

/** An amount in the API's shape as people read it: "12.50 USD", "12.500000 USDC". */
const readable = (a: { value: string; display: { assetSymbol: string; decimals: number } }) => `${formatMinor(BigInt(a.value), a.display.decimals)} ${a.display.assetSymbol}`;

/** The price as the partner set it. */
export const priceText = (p: PaymentRecord, assets: AssetRegistry) => readable(priceAmount(p, assets));

/** What the buyer paid (or owes, for a token price), once known; '' otherwise. */
export function paidText(p: PaymentRecord, assets: AssetRegistry): string {
  const paid = tokenAmount(p, assets);
  return paid ? readable(paid) : '';
}
