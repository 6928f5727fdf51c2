import { notFound, validationError } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CryptoSettlementRecord, MerchantRecord } from './records.ts';
import type { IdempotencyCompletion } from '../idempotency/records.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import type { DataCollectionConfig } from '../collect-data/schema.ts';
import { currencyExponent } from '../currencies.ts';
import { newId } from '../ids.ts';

/**
 * Merchant use cases: the rules a merchant's fields follow beyond the schema (an acceptable logo,
 * a data-collection minimum in a supported currency, at least one change per update) and the
 * units that create, change and soft-delete one.
 */
export interface MerchantDeps {
  storage: StoragePort;
  clock: Clock;
  /** Checks a logo URL; answers one message per problem, none when acceptable. Absent: any HTTPS URL is accepted. */
  checkLogo?: (url: string) => Promise<string[]>;
}

export interface MerchantFields {
  name: string;
  email: string;
  iconUrl?: string | null;
  dataCollection?: DataCollectionConfig | null;
}

export interface MerchantChanges {
  name?: string;
  email?: string;
  iconUrl?: string | null;
  dataCollection?: DataCollectionConfig | null;
}

/** The setting as stored: a minimum amount in a currency the service knows. */
function dataCollectionOf(input: DataCollectionConfig | null | undefined): DataCollectionConfig | null | undefined {
  if (input === undefined || input === null) return input;
  const min = input.minAmount;
  if (min && currencyExponent(min.unit.slice('iso4217/'.length)) === undefined) {
    throw validationError([{ field: 'dataCollection.minAmount.unit', message: 'is not a supported currency' }]);
  }
  return { minAmount: min ? { unit: min.unit, value: min.value } : null };
}

async function assertLogo(deps: MerchantDeps, iconUrl: string | null | undefined): Promise<void> {
  if (!iconUrl || !deps.checkLogo) return;
  const problems = await deps.checkLogo(iconUrl);
  if (problems.length)
    throw validationError(
      problems.map((message) => ({ field: 'iconUrl', message })),
      'The logo at iconUrl is not acceptable',
    );
}

/** A new active merchant; `idempotency` builds the caller's record from it, written in the same unit. */
export async function createMerchant(
  deps: MerchantDeps,
  partnerId: string,
  fields: MerchantFields,
  opts: { idempotency?: (merchant: MerchantRecord) => IdempotencyCompletion } = {},
): Promise<MerchantRecord> {
  await assertLogo(deps, fields.iconUrl);
  const now = deps.clock.now();
  const merchant: MerchantRecord = {
    id: newId('merchant', now),
    partnerId,
    name: fields.name,
    email: fields.email,
    iconUrl: fields.iconUrl ?? null,
    status: 'active',
    createdAt: new Date(now),
    deletedAt: null,
    dataCollection: dataCollectionOf(fields.dataCollection) ?? null,
  };
  await deps.storage.merchants.create(merchant, opts.idempotency?.(merchant));
  return merchant;
}

/** The partner's live merchant with its crypto settlements; 404 otherwise. */
export async function merchantWithSettlements(
  deps: Pick<MerchantDeps, 'storage'>,
  partnerId: string,
  merchantId: string,
): Promise<{ merchant: MerchantRecord; settlements: CryptoSettlementRecord[] }> {
  const merchant = await deps.storage.merchants.get(partnerId, merchantId);
  if (!merchant) throw notFound('No merchant with this id');
  return { merchant, settlements: await deps.storage.settlements.listByMerchant(partnerId, merchant.id) };
}

/** Changes the fields given (at least one); the logo is checked only once the merchant is known to exist. */
export async function updateMerchant(deps: MerchantDeps, partnerId: string, merchantId: string, changes: MerchantChanges): Promise<MerchantRecord> {
  if (changes.name === undefined && changes.email === undefined && changes.iconUrl === undefined && changes.dataCollection === undefined) {
    throw validationError([{ field: 'body', message: 'give at least one of merchantName, merchantEmail, iconUrl, dataCollection' }]);
  }
  const dataCollection = dataCollectionOf(changes.dataCollection);
  if (!(await deps.storage.merchants.get(partnerId, merchantId))) throw notFound('No merchant with this id');
  await assertLogo(deps, changes.iconUrl);
  const updated = await deps.storage.merchants.update(partnerId, merchantId, {
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(changes.email !== undefined ? { email: changes.email } : {}),
    ...(changes.iconUrl !== undefined ? { iconUrl: changes.iconUrl } : {}),
    ...(dataCollection !== undefined ? { dataCollection } : {}),
  });
  if (!updated) throw notFound('No merchant with this id');
  return updated;
}

/** Soft delete: repeatable, the merchant stays readable by its payments; 404 when the partner has no such merchant. */
export async function deleteMerchant(deps: Pick<MerchantDeps, 'storage' | 'clock'>, partnerId: string, merchantId: string): Promise<MerchantRecord> {
  const deleted = await deps.storage.merchants.softDelete(partnerId, merchantId, new Date(deps.clock.now()));
  if (!deleted) throw notFound('No merchant with this id');
  return deleted;
}
