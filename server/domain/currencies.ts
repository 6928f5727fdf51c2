/**
 * ISO 4217 currencies a payment may be priced in, with their minor-unit exponent: "100" USD is
 * 1.00 USD (exponent 2), "100" JPY is 100 JPY (exponent 0), "1000" KWD is 1.000 KWD (exponent 3).
 */
export const CURRENCY_EXPONENTS: Readonly<Record<string, number>> = {
  USD: 2,
  EUR: 2,
  GBP: 2,
  JPY: 0,
  CHF: 2,
  CAD: 2,
  AUD: 2,
  NZD: 2,
  SEK: 2,
  NOK: 2,
  DKK: 2,
  PLN: 2,
  CZK: 2,
  HUF: 2,
  SGD: 2,
  HKD: 2,
  KRW: 0,
  INR: 2,
  BRL: 2,
  MXN: 2,
  ZAR: 2,
  KWD: 3,
  BHD: 3,
};

export function currencyExponent(code: string): number | undefined {
  return Object.hasOwn(CURRENCY_EXPONENTS, code) ? CURRENCY_EXPONENTS[code] : undefined;
}

/** Minor units → a decimal string in the standard unit, exact ("1050", 2 → "10.50"). */
export function formatMinor(value: bigint, exponent: number): string {
  if (exponent === 0) return value.toString();
  const s = value.toString().padStart(exponent + 1, '0');
  return `${s.slice(0, -exponent)}.${s.slice(-exponent)}`;
}
