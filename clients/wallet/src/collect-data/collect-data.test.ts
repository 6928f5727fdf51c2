import { describe, expect, it } from 'vitest';
import { isFromCollectionPage, parseBridgeMessage } from './bridge-message.ts';
import { collectionRequirement } from './requirement.ts';
import { requiredFieldNames, schemaFields } from './schema-fields.ts';
import { toCollectedData, validateCollectedData } from './validate.ts';

const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['fullName', 'dob', 'tosConfirmed'],
  anyOf: [{ required: ['pobCountry', 'pobAddress'] }, { required: ['porCountry', 'porAddress'] }],
  properties: {
    fullName: { type: 'string', minLength: 1, title: 'Name' },
    dob: { type: 'string', format: 'date' },
    pobCountry: { type: 'string', pattern: '^[A-Z]{2}$' },
    pobAddress: { type: 'string', maxLength: 10 },
    porCountry: { type: 'string', pattern: '^[A-Z]{2}$' },
    porAddress: { type: 'string' },
    tosConfirmed: { type: 'boolean', const: true },
  },
};
const collect = { url: 'https://pay.example/collect/pay_1?t=abc', schema, fields: [{ id: 'fullName', name: 'Full name', required: true, type: 'text' as const }] };

describe('collectionRequirement', () => {
  it('follows the interface table', () => {
    expect(collectionRequirement({ collectData: collect }, { collectData: collect })).toEqual({ needed: true, url: collect.url, schema });
    expect(collectionRequirement({ collectData: collect }, { collectData: null })).toEqual({ needed: false, reason: 'not_for_this_option' });
    expect(collectionRequirement({ collectData: null }, { collectData: null })).toEqual({ needed: false, reason: 'none_needed' });
    expect(collectionRequirement({ collectData: null }, {})).toEqual({ needed: false, reason: 'none_needed' });
  });

  it('trusts the option entry even without a response-level entry', () => {
    expect(collectionRequirement({ collectData: null }, { collectData: collect })).toMatchObject({ needed: true, url: collect.url });
  });
});

describe('bridge messages', () => {
  it.each([
    ['IC_COMPLETE', { type: 'complete' }],
    [' IC_ERROR ', { type: 'error' }],
    ['{"type":"IC_COMPLETE"}', { type: 'complete' }],
    [
      { type: 'IC_ERROR', message: 'declined' },
      { type: 'error', message: 'declined' },
    ],
    ['{"type":"IC_ERROR","error":"timeout"}', { type: 'error', message: 'timeout' }],
    ['hello', null],
    ['{not json', null],
    [{ type: 'OTHER' }, null],
    [42, null],
  ])('%j → %j', (input, expected) => {
    expect(parseBridgeMessage(input)).toEqual(expected);
  });

  it('accepts postMessage only from the collection page origin', () => {
    expect(isFromCollectionPage('https://pay.example', collect.url)).toBe(true);
    expect(isFromCollectionPage('https://evil.example', collect.url)).toBe(false);
    expect(isFromCollectionPage('https://pay.example', 'not a url')).toBe(false);
  });
});

describe('schema fields and validation', () => {
  it('lists required fields and the required alternatives', () => {
    expect(requiredFieldNames(schema)).toEqual(['fullName', 'dob', 'tosConfirmed']);
    const { fields, requiredAlternatives } = schemaFields(schema);
    expect(fields.find((f) => f.name === 'dob')).toEqual({ name: 'dob', required: true, type: 'string', format: 'date' });
    expect(fields.find((f) => f.name === 'porAddress')?.required).toBe(false);
    expect(requiredAlternatives).toEqual([
      ['pobCountry', 'pobAddress'],
      ['porCountry', 'porAddress'],
    ]);
  });

  it('accepts complete data and converts it to the confirm wire shape', () => {
    const values = { fullName: 'Ada Lovelace', dob: '1815-12-10', tosConfirmed: true, porCountry: 'GB', porAddress: 'London' };
    expect(validateCollectedData(schema, values)).toEqual([]);
    expect(toCollectedData(values).fields).toContainEqual({ id: 'tosConfirmed', value: 'true' });
  });

  it('reports missing, mistyped and unknown fields', () => {
    const issues = validateCollectedData(schema, { fullName: '', dob: '2000-01-01', tosConfirmed: false, pobCountry: 'gb', pobAddress: 'a very long address', extra: 'x' });
    expect(issues).toEqual([
      { field: 'fullName', message: 'is required' },
      { field: 'tosConfirmed', message: 'must be true' },
      { field: 'pobCountry', message: 'has the wrong format' },
      { field: 'pobAddress', message: 'must have at most 10 characters' },
      { field: 'extra', message: 'is not an accepted field' },
    ]);
    expect(validateCollectedData(schema, { fullName: 'Ada', dob: '2000-01-01', tosConfirmed: true, pobCountry: 'GB' })).toEqual([
      { field: 'pobCountry', message: 'fill in pobCountry + pobAddress or porCountry + porAddress' },
    ]);
    expect(validateCollectedData(schema, { fullName: 7, dob: 'x', tosConfirmed: true, porCountry: 'GB', porAddress: 'y' })).toEqual([
      { field: 'fullName', message: 'must be text' },
    ]);
  });
});
