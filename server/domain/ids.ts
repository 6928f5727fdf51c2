import { monotonicUlid } from './ulid.ts';

/**
 * Resource ids: a type prefix and a ULID. ULIDs sort by creation time (to the millisecond; ids of
 * one millisecond in random order), so keyset pagination by id returns newest-first pages without
 * an extra index on the timestamp. The 80 random bits of each id are fresh: an id is unguessable
 * from any other, which matters because a payment id is a bearer capability on the pay page.
 */
export const ID_PREFIXES = {
  partner: 'ptnr_',
  apiKey: 'key_',
  merchant: 'mrch_',
  cryptoSettlement: 'crypto_',
  payment: 'pay_',
  event: 'evt_',
  job: 'job_',
  webhookEndpoint: 'whep_',
  refund: 'rfnd_',
  option: 'opt_',
  user: 'usr_',
  auditEntry: 'aud_',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const nextUlid = monotonicUlid();

export function newId(kind: IdKind, now: number = Date.now()): string {
  return ID_PREFIXES[kind] + nextUlid(now);
}

/**
 * `n` ids made at one time, in ascending order: a batch whose order means something (settlements
 * as the partner listed them, deliveries in event order) keeps it, though each id's random part
 * is fresh (ids of one millisecond otherwise sort at random among themselves).
 */
export function newIds(kind: IdKind, n: number, now: number = Date.now()): string[] {
  return Array.from({ length: n }, () => newId(kind, now)).sort();
}
