import type { Request, RequestHandler } from 'express';
import { AppError } from '../errors.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import type { Clock } from '../ports/clock.ts';
import type { RateLimiter } from '../ports/rate-limiter.ts';
import { hashApiKey, looksLikeApiKey } from '../auth/keys.ts';
import { originAllowed } from '../domain/partners/origins.ts';
import type { KeyRevocations } from '../auth/revocations.ts';
import { keyPermits } from '../domain/users/permissions.ts';
import { contextOf } from './context.ts';
import { operationPermission } from './key-permissions.ts';
import { createKeyCache, type KeyLookup } from './key-cache.ts';
import { throttleUnauthenticated } from './rate-limit.ts';

export interface AuthOptions {
  storage: StoragePort;
  clock: Clock;
  /** How long a valid key is trusted before it is read again (the revocation delay); default 1 s. */
  keyTrustMs?: number;
  /** Valid keys remembered per process (LRU); default 10,000. */
  maxCachedKeys?: number;
  /**
   * Counts requests that have not proven a key, per client address: missing or malformed
   * credentials, and keys this process does not know, before their database read. Absent: none.
   */
  unauthenticatedLimiter?: RateLimiter;
  /** Production: sandbox partner keys (`sk_test_…`) are refused like unknown keys. */
  refuseTestKeys?: boolean;
  /** Keys revoked in this process (the dashboard): forgotten at once instead of after `keyTrustMs`. */
  revocations?: KeyRevocations;
}

/** The credential a request presents, or the error its auth headers earn. */
function credentialOf(req: Request, auth: readonly string[], legacyKeyHeader: boolean): { credential: string; appId: boolean } | AppError {
  // The deprecated path-based list documents its key in X-Api-Key (Api-Key accepted too).
  const apiKey = (legacyKeyHeader ? req.get('X-Api-Key') : undefined) ?? req.get('Api-Key');
  const appId = req.get('App-Id');
  const clientId = req.get('Client-Id');
  if (apiKey !== undefined && appId !== undefined) return new AppError('conflicting_auth_headers', 'Send either Api-Key or App-Id with Client-Id, not both');
  if (appId !== undefined) {
    if (!auth.includes('app')) return new AppError('forbidden', 'App-Id authenticates wallets on gateway operations only');
    if (!clientId) return new AppError('missing_client_id', 'App-Id needs a Client-Id header (any id of this wallet installation, 1–128 characters)');
    if (clientId.length > 128)
      return new AppError('params_validation', 'Validation failed', { issues: [{ field: 'header.client-id', message: 'must NOT have more than 128 characters' }] });
    return { credential: appId, appId: true };
  }
  if (apiKey) return { credential: apiKey, appId: false };
  if (clientId !== undefined && auth.includes('app')) return new AppError('missing_app_id', 'Client-Id was sent without App-Id');
  return new AppError('missing_api_key', 'Missing API key: send it in the Api-Key header');
}

/**
 * Authenticates the request for the operation the route table matched.
 *
 * A key this process trusts (read in the last `keyTrustMs`) costs no I/O and is never counted
 * against its address. Anything else counts against the client address first (429 once over),
 * so a flood of guessed keys from one address costs at most its allowance in database reads:
 * a stranger's key (counted once while its lookup runs, see `firstLookup`), a missing or malformed
 * one, a sandbox key in production. A known key whose
 * trust lapsed is read again without being counted; if it was revoked meanwhile, the refusal counts.
 */
export function authenticate(deps: AuthOptions): RequestHandler {
  const keys = createKeyCache({
    load: (hash) => deps.storage.apiKeys.findActiveByHash(hash),
    clock: deps.clock,
    ...(deps.keyTrustMs !== undefined ? { trustMs: deps.keyTrustMs } : {}),
    ...(deps.maxCachedKeys !== undefined ? { maxKeys: deps.maxCachedKeys } : {}),
  });
  deps.revocations?.onChanged((hash) => keys.forget(hash));
  const limiter = deps.unauthenticatedLimiter;
  const throttle = (req: Request) => (limiter ? throttleUnauthenticated(limiter, req) : Promise.resolve());

  async function lookup(req: Request, credential: string): Promise<KeyLookup | null> {
    // Looked up by its SHA-256: the comparison happens on the digest in the index, so its timing
    // says nothing about the key itself.
    if (deps.refuseTestKeys && credential.startsWith('sk_test_')) {
      await throttle(req);
      throw new AppError('invalid_api_key', 'Sandbox keys (sk_test_…) are not accepted in production mode: use a live key (sk_live_…)');
    }
    const hash = looksLikeApiKey(credential) ? hashApiKey(credential) : undefined;
    if (!hash) {
      await throttle(req);
      return null;
    }
    const trusted = keys.trusted(hash);
    if (trusted) return trusted;
    if (!keys.known(hash)) return firstLookup(req, hash);
    const found = await keys.load(hash);
    // A key that was valid and is no longer (revoked): the refusal counts like any other.
    if (!found) await throttle(req).catch(() => {});
    return found;
  }

  // Lookups of keys this process has not proven, by hash, from being counted to being read.
  const unproven = new Map<string, Promise<KeyLookup | null>>();
  /**
   * A key this process has not proven yet is counted once and read once, however many requests
   * bring it at the same time: a client's first burst to a fresh process is one guess, not one per
   * request, while every distinct key still costs one count before its read. Requests that join a
   * lookup share its outcome, a 429 included (only someone holding the same key can join).
   */
  function firstLookup(req: Request, hash: string): Promise<KeyLookup | null> {
    let pending = unproven.get(hash);
    if (!pending) {
      pending = throttle(req)
        .then(() => keys.load(hash))
        .finally(() => unproven.delete(hash));
      unproven.set(hash, pending);
    }
    return pending;
  }

  return async (req, res, next) => {
    const ctx = contextOf(res);
    const op = ctx.operation;
    if (!op) return next();
    try {
      const presented = credentialOf(req, op.auth, op.legacyKeyHeader);
      if (presented instanceof AppError) {
        await throttle(req);
        throw presented;
      }
      const found = await lookup(req, presented.credential);
      if (!found || presented.appId !== (found.key.scope === 'app')) {
        throw new AppError('invalid_api_key', presented.appId ? 'Unknown App-Id' : 'Invalid API key');
      }
      if (!op.auth.includes(found.key.scope)) {
        throw new AppError('forbidden', `A ${found.key.scope} key cannot call ${op.operationId}`);
      }
      // A key limited to a role's permissions (made by a developer in the dashboard) calls only
      // what that role may do; an operation missing from the table is refused to limited keys.
      if (found.key.scope === 'partner' && found.key.permissions) {
        const needed = operationPermission(op.operationId);
        if (needed === undefined || (needed !== null && !keyPermits(found.key, needed))) {
          throw new AppError('forbidden', `This key is limited to ${found.key.permissions.join(', ') || 'nothing'} and cannot call ${op.operationId}`);
        }
      }
      // An App-Id limited to some web origins refuses a browser on any other; a request without an
      // Origin header (a native wallet, a server) passes, see originAllowed.
      if (!originAllowed(found.key.allowedOrigins, req.get('Origin'))) {
        throw new AppError('forbidden', 'This App-Id is not allowed from this web origin: add the origin to the App-Id in the dashboard');
      }
      ctx.key = found.key;
      ctx.partner = found.partner;
      // Only the partner's own servers may name the trace its webhook deliveries and our logs
      // carry; a wallet key or App-Id is in a buyer's hands (issue 30 item 8).
      if (found.key.scope === 'partner') ctx.adoptCallerTrace(res);
      next();
    } catch (err) {
      next(err);
    }
  };
}
