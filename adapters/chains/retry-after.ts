// A 429's `Retry-After`, as RFC 9110 §10.2.3 defines it: delay-seconds, or an HTTP-date. Read as
// seconds (never as milliseconds, the mistake the issue found), and capped by the caller: a
// provider asking for an hour must not hold a payment step for an hour.

/** When the header is absent or unreadable: one second, what most providers' windows are. */
export const DEFAULT_RETRY_AFTER_MS = 1_000;

/** The wait a `Retry-After` value asks for, in ms, clamped to [0, capMs]. */
export function retryAfterMs(header: string | null | undefined, capMs: number, now: number = Date.now()): number {
  const ms = parse(header, now);
  return Math.max(0, Math.min(capMs, ms));
}

function parse(header: string | null | undefined, now: number): number {
  const text = header?.trim();
  if (!text) return DEFAULT_RETRY_AFTER_MS;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? DEFAULT_RETRY_AFTER_MS : at - now;
}
