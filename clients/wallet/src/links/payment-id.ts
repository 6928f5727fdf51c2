/**
 * Payment identifiers are `pay_` followed by an opaque run of URL-safe characters.
 * The SDK never interprets the opaque part; it only refuses anything that could smuggle
 * path separators, query syntax or whitespace into a gateway URL.
 */
const PAYMENT_ID_PATTERN = /^pay_[A-Za-z0-9_-]{1,200}$/;

/** True when `value` has the shape of a payment identifier (used before any network call). */
export function isPaymentId(value: string): boolean {
  return PAYMENT_ID_PATTERN.test(value);
}
