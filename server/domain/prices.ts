import type { AssetInfo } from './assets.ts';
import { currencyExponent } from './currencies.ts';

/**
 * Fiat → token amounts. A stablecoin is at par with the currency it tracks; other pairs use
 * configured rates. All arithmetic is on integers (rates are parsed as exact fractions) and the
 * result is rounded UP to the token's base unit: the merchant never receives less than the price.
 */
export interface PricePort {
  /** Base units of `asset` for `fiatMinor` of `currency`, or null when no rate is known. */
  tokenAmount(currency: string, fiatMinor: bigint, asset: AssetInfo): bigint | null;
}

interface Fraction {
  num: bigint;
  den: bigint;
}

function parseRate(text: string): Fraction {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`price: rate ${text} is not a positive decimal`);
  const frac = m[2] ?? '';
  const f = { num: BigInt(m[1]! + frac), den: 10n ** BigInt(frac.length) };
  if (f.num === 0n) throw new Error('price: a rate cannot be zero');
  return f;
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

/**
 * `rates` maps "FROM/TO" to how many TO one FROM is worth, e.g. `{ "EUR/USD": "1.08" }`; the
 * inverse pair is derived when only one direction is configured.
 */
export function createPriceTable(rates: Record<string, string> = {}): PricePort {
  const table = new Map<string, Fraction>();
  for (const [pair, text] of Object.entries(rates)) {
    const [from, to] = pair.split('/');
    if (!from || !to || currencyExponent(from) === undefined || currencyExponent(to) === undefined) throw new Error(`price: bad pair ${pair}`);
    const r = parseRate(text);
    table.set(`${from}/${to}`, r);
    if (!table.has(`${to}/${from}`)) table.set(`${to}/${from}`, { num: r.den, den: r.num });
  }
  return {
    tokenAmount(currency, fiatMinor, asset) {
      const exp = currencyExponent(currency);
      if (exp === undefined || !asset.pegCurrency) return null;
      const rate = asset.pegCurrency === currency ? { num: 1n, den: 1n } : table.get(`${currency}/${asset.pegCurrency}`);
      if (!rate) return null;
      // token = fiatMinor / 10^exp × rate × 10^decimals, rounded up.
      const scale = BigInt(asset.decimals) - BigInt(exp);
      const num = fiatMinor * rate.num * (scale >= 0n ? 10n ** scale : 1n);
      const den = rate.den * (scale < 0n ? 10n ** -scale : 1n);
      return ceilDiv(num, den);
    },
  };
}
