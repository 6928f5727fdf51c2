import { newId } from '../domain/ids.ts';
import type { ApiKeyRecord, KeyPermission, KeyScope, PartnerRecord } from '../domain/partners/records.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import { generateApiKey, hashApiKey, keyHint } from './keys.ts';

/**
 * Creating partners and keys: shared by the key tool and the first start of an empty database.
 * The key value is returned once, here, and never again: only its hash is stored.
 */
export async function createKey(
  storage: StoragePort,
  opts: {
    partnerId: string;
    scope: KeyScope;
    live: boolean;
    now?: Date;
    name?: string;
    allowedOrigins?: string[];
    /** Partner keys: the API permissions it is limited to (absent: all). */
    permissions?: readonly KeyPermission[];
    /** The dashboard user making it. */
    createdBy?: string;
  },
): Promise<{ record: ApiKeyRecord; apiKey: string }> {
  const apiKey = generateApiKey(opts.scope, opts.live);
  const now = opts.now ?? new Date();
  const record: ApiKeyRecord = {
    id: newId('apiKey', now.getTime()),
    partnerId: opts.partnerId,
    scope: opts.scope,
    keyHash: hashApiKey(apiKey),
    hint: keyHint(apiKey),
    createdAt: now,
    revokedAt: null,
    ...(opts.name ? { name: opts.name } : {}),
    ...(opts.allowedOrigins?.length ? { allowedOrigins: opts.allowedOrigins } : {}),
    ...(opts.permissions && opts.scope === 'partner' ? { permissions: opts.permissions } : {}),
    ...(opts.createdBy ? { createdBy: opts.createdBy } : {}),
  };
  await storage.apiKeys.create(record);
  return { record, apiKey };
}

export async function createPartner(
  storage: StoragePort,
  opts: { name: string; version: string; live: boolean; now?: Date; iconUrl?: string },
): Promise<{ partner: PartnerRecord; apiKey: string; keyId: string }> {
  const now = opts.now ?? new Date();
  const partner: PartnerRecord = {
    id: newId('partner', now.getTime()),
    name: opts.name,
    defaultVersion: opts.version,
    createdAt: now,
    ...(opts.iconUrl ? { iconUrl: opts.iconUrl } : {}),
  };
  await storage.partners.create(partner);
  const { record, apiKey } = await createKey(storage, { partnerId: partner.id, scope: 'partner', live: opts.live, now });
  return { partner, apiKey, keyId: record.id };
}
