import { monotonicUlid } from './ulid.ts';

/**
 * Resource ids: a type prefix and a ULID. ULIDs sort by creation time, so keyset pagination by id
 * returns newest-first pages without an extra index on the timestamp.
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
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const nextUlid = monotonicUlid();

export function newId(kind: IdKind, now: number = Date.now()): string {
  return ID_PREFIXES[kind] + nextUlid(now);
}

export function hasPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(ID_PREFIXES[kind]);
}
