import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { StoragePort } from '../ports/storage.ts';
import { contextOf, partnerOf } from './context.ts';

/** JSON with object keys sorted, so a retry that reorders fields is still the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Before validation: a required key that is absent has its own code. */
export function requireIdempotencyKey(): RequestHandler {
  return (req, res, next) => {
    const op = contextOf(res).operation;
    if (op?.idempotency === 'required' && !req.get('Idempotency-Key')) {
      return next(new AppError('missing_idempotency_key', 'Missing Idempotency-Key header: send a unique key so retries are safe'));
    }
    next();
  };
}

export interface IdempotencyOptions {
  storage: StoragePort;
  clock: Clock;
  /** A claim older than this belongs to a request that died; it may be taken over. */
  staleAfterMs?: number;
  /** How long a concurrent request with the same key waits for the first one's answer. */
  waitMs?: number;
  pollMs?: number;
}

/**
 * After validation: claims the key. A replay answers the stored status and body; the same key
 * with another body is a conflict; a request that arrives while the first is still running waits
 * for its answer, so concurrent retries all see one result. The stored answer is written in the
 * same transaction as the resource (see `IdempotencyScope.completeWith`).
 */
export function claimIdempotencyKey(opts: IdempotencyOptions): RequestHandler {
  const staleAfterMs = opts.staleAfterMs ?? 60_000;
  const waitMs = opts.waitMs ?? 15_000;
  const pollMs = opts.pollMs ?? 25;
  return async (req, res, next) => {
    const ctx = contextOf(res);
    const key = req.get('Idempotency-Key');
    if (!ctx.operation || ctx.operation.idempotency === 'none' || !key) return next();
    try {
      const partnerId = partnerOf(ctx).id;
      const requestHash = createHash('sha256')
        .update(`${ctx.operation.operationId}\n${req.path}\n${canonicalJson(req.body ?? null)}`)
        .digest('hex');
      const deadline = opts.clock.now() + waitMs;
      for (;;) {
        const claim = await opts.storage.idempotency.claim(partnerId, key, requestHash, new Date(opts.clock.now()), staleAfterMs);
        if (claim.kind === 'conflict') {
          throw new AppError('idempotency_conflict', 'This Idempotency-Key was already used with a different request');
        }
        if (claim.kind === 'replay') {
          res.setHeader('Idempotent-Replayed', 'true');
          res.status(claim.statusCode).json(claim.body);
          return;
        }
        if (claim.kind === 'claimed') break;
        if (opts.clock.now() >= deadline) {
          throw new AppError('idempotency_in_progress', 'A request with this Idempotency-Key is still being processed; retry shortly');
        }
        await new Promise((r) => setTimeout(r, pollMs));
      }
      const scope = {
        key,
        requestHash,
        storedAtomically: false,
        completeWith(statusCode: number, body: unknown) {
          scope.storedAtomically = true;
          return { partnerId, key, statusCode, body };
        },
      };
      ctx.idempotency = scope;
      next();
    } catch (err) {
      next(err);
    }
  };
}
