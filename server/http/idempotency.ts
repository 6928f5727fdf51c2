import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import { contextOf, partnerOf } from './context.ts';

/**
 * JSON with object keys sorted, so a retry that reorders fields is still the same request.
 * Recursive: it only ever sees bodies that hostile-input.ts has bounded in depth first.
 */
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

/**
 * Headers that select the version (the resolved version stands for them in the fingerprint) or
 * only describe the caller's SDK (a retry from an upgraded SDK is still the same request).
 */
const NOT_FINGERPRINTED = new Set(['idempotency-key', 'svc-version', 'wcp-version', 'sdk-name', 'sdk-version', 'sdk-platform']);

export interface RequestParts {
  operationId: string;
  /** Decoded path parameters (the resource the request is about). */
  pathParams: Record<string, string>;
  /** The API version the request runs under, after resolving its pin and headers. */
  apiVersion: string;
  query: unknown;
  /** Every header parameter the operation declares, by lower-case name; absent ones as undefined. */
  headers: Record<string, string | undefined>;
  body: unknown;
}

/**
 * What an Idempotency-Key is bound to: everything that decides what the request does. The same
 * key with the same body but another `Merchant-Id`, path, query or version is another request,
 * and must answer 409 rather than replay the first one's answer (a payment of another merchant).
 */
export function requestFingerprint(parts: RequestParts): string {
  const headers: Record<string, string | null> = {};
  for (const [name, value] of Object.entries(parts.headers)) if (!NOT_FINGERPRINTED.has(name)) headers[name] = value ?? null;
  return createHash('sha256')
    .update(canonicalJson({ op: parts.operationId, path: parts.pathParams, version: parts.apiVersion, query: parts.query ?? {}, headers, body: parts.body ?? null }))
    .digest('hex');
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
  /** The header parameters of an operation in any version (lower case); default: the matched operation's own. */
  headerParamsOf?: (operationId: string) => readonly string[];
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
      const op = ctx.operation;
      const headers: Record<string, string | undefined> = {};
      for (const name of opts.headerParamsOf?.(op.operationId) ?? op.headerParams) headers[name] = req.get(name);
      const requestHash = requestFingerprint({
        operationId: op.operationId,
        pathParams: ctx.pathParams ?? {},
        apiVersion: ctx.apiVersion ?? '',
        query: ctx.query,
        headers,
        body: req.body,
      });
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
