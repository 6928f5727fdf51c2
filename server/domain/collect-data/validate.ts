import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidationIssue } from '../../errors.ts';
import { COLLECT_SCHEMA, TERMS_FIELD } from './schema.ts';

/**
 * The server's check of collected data, against the very schema the page and wallets are given,
 * so a wallet building its own form and the hosted page are held to the same rules.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
const check = ajv.compile(COLLECT_SCHEMA);

export type CollectedValues = Record<string, string | boolean>;

function issueOf(e: ErrorObject): ValidationIssue {
  const field = e.instancePath.replace(/^\//, '').replace(/\//g, '.') || (e.params as { missingProperty?: string }).missingProperty || 'data';
  if (e.keyword === 'required') return { field: (e.params as { missingProperty: string }).missingProperty, message: 'is required' };
  if (e.keyword === 'anyOf') return { field: 'email', message: 'give an email or a phone number' };
  if (e.keyword === 'const') return { field, message: 'must be accepted' };
  if (e.keyword === 'additionalProperties') return { field: (e.params as { additionalProperty: string }).additionalProperty, message: 'is not a field of this form' };
  return { field, message: e.message ?? 'is not valid' };
}

/** Issues of `data`, none when it satisfies the schema. */
export function validateCollected(data: unknown): ValidationIssue[] {
  if (check(data)) return [];
  const seen = new Set<string>();
  return (check.errors ?? [])
    .filter((e) => !(e.keyword === 'required' && e.schemaPath.startsWith('#/anyOf')))
    .map(issueOf)
    .filter((i) => (seen.has(`${i.field}:${i.message}`) ? false : (seen.add(`${i.field}:${i.message}`), true)));
}

/** `collectedData.fields` (string values) → the schema's object: the terms field reads "true". */
export function valuesFromFields(fields: Array<{ id: string; value: string }>): CollectedValues {
  const out: CollectedValues = {};
  for (const f of fields) out[f.id] = f.id === TERMS_FIELD ? f.value === 'true' : f.value;
  return out;
}
