import type { RequestHandler } from 'express';
import { AppError } from '../errors.ts';
import type { ApiKeyRecord, PartnerRecord, StoragePort } from '../ports/storage.ts';
import type { Clock } from '../ports/clock.ts';
import { hashApiKey, looksLikeApiKey } from '../auth/keys.ts';
import { contextOf } from './context.ts';

type Found = { key: ApiKeyRecord; partner: PartnerRecord } | null;

/**
 * Authenticates the request for the operation the route table matched. Key lookups are cached
 * for a few seconds per process: a key is checked on every request, and the cache keeps that
 * off the database; a revocation takes effect everywhere within `cacheMs`.
 */
export function authenticate(deps: { storage: StoragePort; clock: Clock; cacheMs?: number }): RequestHandler {
  const cacheMs = deps.cacheMs ?? 5_000;
  const cache = new Map<string, { at: number; found: Found }>();

  async function lookup(hash: string): Promise<Found> {
    const now = deps.clock.now();
    const hit = cache.get(hash);
    if (hit && now - hit.at < cacheMs) return hit.found;
    const found = await deps.storage.apiKeys.findActiveByHash(hash);
    if (cache.size > 10_000) cache.clear();
    cache.set(hash, { at: now, found });
    return found;
  }

  return async (req, res, next) => {
    const ctx = contextOf(res);
    const op = ctx.operation;
    if (!op) return next();
    try {
      const apiKey = req.get('Api-Key');
      const appId = req.get('App-Id');
      const clientId = req.get('Client-Id');
      if (apiKey !== undefined && appId !== undefined) {
        throw new AppError('conflicting_auth_headers', 'Send either Api-Key or App-Id with Client-Id, not both');
      }
      let credential: string;
      if (appId !== undefined) {
        if (!op.auth.includes('app')) throw new AppError('forbidden', 'App-Id authenticates wallets on gateway operations only');
        if (!clientId) throw new AppError('missing_client_id', 'App-Id needs a Client-Id header (any id of this wallet installation, 1–128 characters)');
        if (clientId.length > 128) throw new AppError('params_validation', 'Validation failed', { issues: [{ field: 'header.client-id', message: 'must NOT have more than 128 characters' }] });
        credential = appId;
      } else if (apiKey) {
        credential = apiKey;
      } else if (clientId !== undefined && op.auth.includes('app')) {
        throw new AppError('missing_app_id', 'Client-Id was sent without App-Id');
      } else {
        throw new AppError('missing_api_key', 'Missing API key: send it in the Api-Key header');
      }
      // Looked up by its SHA-256: the comparison happens on the digest in the index, so its timing
      // says nothing about the key itself.
      const found = looksLikeApiKey(credential) ? await lookup(hashApiKey(credential)) : null;
      if (!found || (appId !== undefined) !== (found.key.scope === 'app')) {
        throw new AppError('invalid_api_key', appId !== undefined ? 'Unknown App-Id' : 'Invalid API key');
      }
      if (!op.auth.includes(found.key.scope)) {
        throw new AppError('forbidden', `A ${found.key.scope} key cannot call ${op.operationId}`);
      }
      ctx.key = found.key;
      ctx.partner = found.partner;
      next();
    } catch (err) {
      next(err);
    }
  };
}
