import type { Request, RequestHandler } from 'express';
import { AppError } from '../errors.ts';
import type { RateDecision, RateLimiter } from '../ports/rate-limiter.ts';
import type { ApiKeyRecord } from '../domain/partners/records.ts';
import { contextOf } from './context.ts';

/**
 * Who a request counts against. A partner's or wallet backend's key is one client. An App-Id is
 * shipped inside every installation of a wallet app, so there each address is its own client:
 * one abusive installation must not lock all the others out. (Client-Id is the caller's choice,
 * so it cannot be the key.) Behind proxies, `TRUST_PROXY` makes `req.ip` the buyer's address.
 */
function clientKey(req: Request, key: ApiKeyRecord): string {
  return key.scope === 'app' ? `${key.id}@${req.ip ?? ''}` : key.id;
}

/**
 * 429 `rate_limited` with `Retry-After` once a client is over its rate. Runs after authentication,
 * so it counts authenticated clients only; a request without a valid key is refused before it
 * costs more than a cached lookup.
 */
export function rateLimit(limiter: RateLimiter): RequestHandler {
  return (req, res, next) => {
    const key = contextOf(res).key;
    if (!key) return next();
    take(limiter, clientKey(req, key), next);
  };
}

/** The same for requests without a key (the buyer pages): one count per client address. */
export function limitByAddress(limiter: RateLimiter): RequestHandler {
  return (req, _res, next) => take(limiter, `address@${req.ip ?? ''}`, next);
}

/**
 * Counts a request that has not (yet) proven a key against its client address, and throws 429
 * once the address is over its bound. Auth calls it before a key it does not know costs a
 * database read, so guessing keys from one address is throttled, not a lookup per guess.
 */
export async function throttleUnauthenticated(limiter: RateLimiter, req: Request): Promise<void> {
  const refused = refusal(await limiter.take(`unauthenticated@${req.ip ?? ''}`));
  if (refused) throw refused;
}

function refusal(decision: RateDecision): AppError | null {
  if (decision.allowed) return null;
  const retryAfterS = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  return new AppError('rate_limited', `Too many requests: retry after ${retryAfterS} s`, { details: { retryAfterS } });
}

function take(limiter: RateLimiter, client: string, next: (err?: unknown) => void): void {
  limiter.take(client).then((decision) => next(refusal(decision) ?? undefined), next);
}
