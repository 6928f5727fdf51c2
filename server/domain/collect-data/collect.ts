import { validationError } from '../../errors.ts';
import type { QuoteRecord } from '../payments/quote-records.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import type { Clock } from '../../ports/clock.ts';
import { COLLECT_FIELDS, COLLECT_SCHEMA, TERMS_FIELD } from './schema.ts';
import { signCollectToken } from './token.ts';
import { validateCollected, valuesFromFields, type CollectedValues } from './validate.ts';

/** What options and confirm need to ask for buyer data: the token secret and where the page is. */
export interface CollectDeps {
  /** HMAC key of the page tokens. */
  secret: string;
  /** Base of buyer links; the form of an option is `{payBaseUrl}/collect/<token>`. */
  payBaseUrl: string;
}

/** An option's `collectData`: the page scoped to it (until its quote's deadline), the schema and its fields. */
export function collectDataOf(deps: CollectDeps, quote: Pick<QuoteRecord, 'paymentId' | 'optionId' | 'deadline'>) {
  const token = signCollectToken(deps.secret, { paymentId: quote.paymentId, optionId: quote.optionId, exp: Math.floor(quote.deadline.getTime() / 1000) });
  return { url: `${deps.payBaseUrl}/collect/${token}`, schema: COLLECT_SCHEMA as unknown as Record<string, unknown>, fields: COLLECT_FIELDS.map((f) => ({ ...f })) };
}

/**
 * Validates and stores buyer data for one option (from the page, or `collectedData` on confirm).
 * Issues are named under `prefix` (e.g. `collectedData.`), so a wallet sees which field failed.
 */
export async function recordCollected(
  deps: { storage: StoragePort; clock: Clock },
  quote: Pick<QuoteRecord, 'paymentId' | 'optionId'>,
  values: CollectedValues,
  prefix = '',
): Promise<void> {
  const issues = validateCollected(values);
  if (issues.length)
    throw validationError(
      issues.map((i) => ({ field: `${prefix}${i.field}`, message: i.message })),
      'The buyer data does not satisfy the collectData schema',
    );
  const at = new Date(deps.clock.now());
  await deps.storage.quotes.saveCollected(quote.paymentId, quote.optionId, { data: values, termsAcceptedAt: at, at });
}

/**
 * Confirm's check: an option that needs data has it, either stored by the page earlier or sent now
 * as `collectedData` (validated against the same schema). Options without the need ignore it.
 */
export async function requireCollected(
  deps: { storage: StoragePort; clock: Clock },
  quote: QuoteRecord,
  collectedData: { fields: Array<{ id: string; value: string }> } | null | undefined,
): Promise<void> {
  if (!quote.collectData) return;
  if (collectedData) return recordCollected(deps, quote, valuesFromFields(collectedData.fields), 'collectedData.');
  if (quote.collected && quote.collected.data[TERMS_FIELD] === true) return;
  throw validationError(
    [{ field: 'collectedData', message: 'this option needs buyer data: complete the collectData.url page first, or send collectedData' }],
    'This option needs buyer data before it can be confirmed',
  );
}
