/**
 * What a merchant asks of buyers before they pay (the `dataCollection` setting of a merchant):
 * which payments need it, and the JSON Schema (2020-12) of the form. The schema's fields are
 * strings (as `collectedData.fields[].value` carries them) except the terms checkbox, `const: true`.
 */
export interface DataCollectionConfig {
  /** Payments at or above this amount need data; null: every payment. Another currency: data is asked. */
  minAmount: { unit: string; value: string } | null;
}

export const TERMS_FIELD = 'termsAccepted';

export const COLLECT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Buyer information',
  type: 'object',
  properties: {
    fullName: { type: 'string', title: 'Full name', minLength: 2, maxLength: 200 },
    dateOfBirth: { type: 'string', title: 'Date of birth', format: 'date' },
    country: { type: 'string', title: 'Country of residence (ISO code, e.g. DE)', pattern: '^[A-Z]{2}$' },
    email: { type: 'string', title: 'Email', format: 'email', maxLength: 254 },
    phone: { type: 'string', title: 'Phone (international, e.g. +4915112345678)', pattern: '^\\+[1-9][0-9]{6,14}$' },
    [TERMS_FIELD]: { const: true, title: 'I accept the terms of service and agree that this information is shared with the merchant' },
  },
  required: ['fullName', 'dateOfBirth', 'country', TERMS_FIELD],
  anyOf: [
    { title: 'Email or phone', required: ['email'] },
    { title: 'Email or phone', required: ['phone'] },
  ],
  additionalProperties: false,
} as const;

export type CollectDataFieldType = 'text' | 'date' | 'checkbox';

/** One field of the form as a flat list shows it (`collectData.fields[]`). */
export interface CollectDataField {
  id: string;
  name: string;
  required: boolean;
  type: CollectDataFieldType;
}

type PropertySchema = { title?: string; format?: string; const?: unknown; type?: string };

/**
 * The schema's fields as a flat list, derived from the schema so the two never disagree: a
 * `const: true` (the terms) or boolean field is a checkbox, a `date` a date, anything else text.
 * Only fields the schema requires outright are `required`; one of a choice (email or phone) is not.
 */
export function fieldsOf(schema: { properties: Record<string, PropertySchema>; required: readonly string[] }): CollectDataField[] {
  return Object.entries(schema.properties).map(([id, p]) => ({
    id,
    name: p.title ?? id,
    required: schema.required.includes(id),
    type: p.const === true || p.type === 'boolean' ? 'checkbox' : p.format === 'date' ? 'date' : 'text',
  }));
}

export const COLLECT_FIELDS: readonly CollectDataField[] = fieldsOf(COLLECT_SCHEMA);

/**
 * Whether a payment priced `value` in `unit` (`iso4217/…` or `caip19/…`) needs data under the
 * merchant's setting. A price in another unit than the threshold's (a token price included) is
 * not converted: data is asked, the cautious side.
 */
export function needsCollection(config: DataCollectionConfig | null | undefined, unit: string, value: bigint): boolean {
  if (!config) return false;
  if (!config.minAmount) return true;
  if (config.minAmount.unit !== unit) return true;
  return value >= BigInt(config.minAmount.value);
}
