/** Idempotency keys: what a repeated request is answered with. */

/** The answer stored with an idempotency key, written in the same unit as the resource. */
export interface IdempotencyCompletion {
  partnerId: string;
  key: string;
  statusCode: number;
  body: unknown;
}

export type IdempotencyClaim = { kind: 'claimed' } | { kind: 'replay'; statusCode: number; body: unknown } | { kind: 'conflict' } | { kind: 'in_progress' };
