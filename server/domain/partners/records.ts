/** Who calls the service: partners and their API keys. */

/** partner: partner operations; wallet: gateway operations (secret); app: gateway operations (public id + Client-Id). */
export type KeyScope = 'partner' | 'wallet' | 'app';

export interface PartnerRecord {
  id: string;
  name: string;
  /** The API version used when a request does not pin one. */
  defaultVersion: string;
  createdAt: Date;
  /** Shown as the wallet app (`buyer.accountProviderIcon`) on payments its wallet keys confirm; absent: none. */
  iconUrl?: string | null;
  /** The IANA time zone the dashboard shows times in; absent: UTC. */
  timeZone?: string;
}

/**
 * What a partner key limited to a role may do through the API (the dashboard's permission names,
 * see domain/users/permissions.ts); `payments:create` exists only here, for the integration a
 * developer builds.
 */
export type KeyPermission = 'read' | 'payments:create' | 'payments:write' | 'merchants:write' | 'webhooks:write';

export interface ApiKeyRecord {
  id: string;
  partnerId: string;
  scope: KeyScope;
  /** SHA-256 of the key, hex. The key itself is never stored. */
  keyHash: string;
  /** The last characters of the key, to tell keys apart in listings. */
  hint: string;
  createdAt: Date;
  revokedAt: Date | null;
  /** What the partner calls it (dashboard); absent: unnamed (keys made by the key tool). */
  name?: string;
  /** When the API last accepted it, to the minute; absent: never (or not since names and use were recorded). */
  lastUsedAt?: Date;
  /** App-Ids only: the web origins it may be used from (see origins.ts); absent or empty: any. */
  allowedOrigins?: string[];
  /** Partner keys: the only API permissions it has; absent: all (key tool, owners, keys made before). */
  permissions?: readonly KeyPermission[];
  /** The dashboard user who made it; absent: the key tool or the first start. */
  createdBy?: string;
}
