import { describe, expect, it } from 'vitest';
import { GatewayProtocolError } from './errors.ts';
import { readOptions } from './read-responses.ts';

const collectData = (fields: unknown) => ({ url: 'https://pay.example/collect/pay_1?t=a', schema: { type: 'object' }, ...(fields === undefined ? {} : { fields }) });

describe('reading collectData', () => {
  it('keeps the flat field list the service sends beside url and schema', () => {
    const fields = [
      { id: 'fullName', name: 'Full name', required: true, type: 'text' },
      { id: 'dob', name: 'Date of birth', required: true, type: 'date' },
      { id: 'tosConfirmed', name: 'Terms', required: true, type: 'checkbox' },
    ];
    expect(readOptions({ options: [], collectData: collectData(fields) }).collectData?.fields).toEqual(fields);
  });

  it('reads an older service without fields as an empty list', () => {
    expect(readOptions({ options: [], collectData: collectData(undefined) }).collectData?.fields).toEqual([]);
  });

  it('refuses fields that are not {id, name, required, type}', () => {
    expect(() => readOptions({ options: [], collectData: collectData([{ id: 'x' }]) })).toThrow(GatewayProtocolError);
    expect(() => readOptions({ options: [], collectData: collectData('fullName') })).toThrow(GatewayProtocolError);
  });
});
