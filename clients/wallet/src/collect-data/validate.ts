import type { GatewayIssue } from '../gateway/errors.ts';
import type { CollectedData } from '../gateway/types.ts';
import { asObject, schemaFields, stringList } from './schema-fields.ts';

export type CollectedValue = string | number | boolean;

/**
 * A minimal pre-send check of buyer data against the collection schema: required fields,
 * `anyOf`/`oneOf` required groups, unknown fields when `additionalProperties` is false, and
 * per-field type, const, enum, length and pattern. The service validates fully; this only
 * spares the buyer a round trip for obvious mistakes.
 */
export function validateCollectedData(schema: unknown, values: Record<string, CollectedValue>): GatewayIssue[] {
  const root = asObject(schema);
  const properties = asObject(root.properties);
  const issues: GatewayIssue[] = [];
  const present = (name: string): boolean => values[name] !== undefined && values[name] !== '';
  for (const name of stringList(root.required)) {
    if (!present(name)) issues.push({ field: name, message: 'is required' });
  }
  const { requiredAlternatives } = schemaFields(schema);
  if (requiredAlternatives.length > 0 && !requiredAlternatives.some((group) => group.every(present))) {
    const wanted = requiredAlternatives.map((group) => group.join(' + ')).join(' or ');
    issues.push({ field: requiredAlternatives[0]?.[0] ?? '', message: `fill in ${wanted}` });
  }
  for (const [name, value] of Object.entries(values)) {
    if (value === '') continue; // already reported as missing when required
    if (!(name in properties)) {
      if (root.additionalProperties === false) issues.push({ field: name, message: 'is not an accepted field' });
      continue;
    }
    const problem = checkValue(asObject(properties[name]), value);
    if (problem !== null) issues.push({ field: name, message: problem });
  }
  return issues;
}

function checkValue(property: Record<string, unknown>, value: CollectedValue): string | null {
  const type = property.type;
  if (type === 'string' && typeof value !== 'string') return 'must be text';
  if (type === 'boolean' && typeof value !== 'boolean') return 'must be true or false';
  if (type === 'number' && typeof value !== 'number') return 'must be a number';
  if (type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
  if ('const' in property && property.const !== value) return `must be ${JSON.stringify(property.const)}`;
  if (Array.isArray(property.enum) && !property.enum.includes(value)) return 'is not one of the allowed values';
  if (typeof value === 'string') {
    if (typeof property.minLength === 'number' && [...value].length < property.minLength) return `must have at least ${property.minLength} characters`;
    if (typeof property.maxLength === 'number' && [...value].length > property.maxLength) return `must have at most ${property.maxLength} characters`;
    if (typeof property.pattern === 'string' && !new RegExp(property.pattern, 'u').test(value)) return 'has the wrong format';
  }
  return null;
}

/** The wire shape confirm sends: `{ fields: [{ id, value }] }` with values as strings. */
export function toCollectedData(values: Record<string, CollectedValue>): CollectedData {
  return { fields: Object.entries(values).map(([id, value]) => ({ id, value: String(value) })) };
}
