import type { ApiKeyRecord, PartnerRecord } from '../../domain/partners/records.ts';

/**
 * API keys, found by the hash of the key alone (the key is never stored). A revoked key is never
 * found again; revoking is once only.
 */
export interface ApiKeyRepository {
  create(key: ApiKeyRecord): Promise<void>;
  /**
   * The active (not revoked) key with this hash, with its partner. Marks the key used (its
   * `lastUsedAt` in later listings, to the minute); the key returned is as it was before.
   */
  findActiveByHash(keyHash: string): Promise<{ key: ApiKeyRecord; partner: PartnerRecord } | null>;
  listByPartner(partnerId: string): Promise<ApiKeyRecord[]>;
  /** Replaces a key's allowed origins (empty: any origin). False when there is no such key. */
  setAllowedOrigins(id: string, origins: string[]): Promise<boolean>;
  /** The partner's keys not revoked that this dashboard user made (`createdBy`). */
  listActiveByCreator(partnerId: string, userId: string): Promise<ApiKeyRecord[]>;
  /** True when a key was revoked by this call. */
  revoke(id: string, at: Date): Promise<boolean>;
}
