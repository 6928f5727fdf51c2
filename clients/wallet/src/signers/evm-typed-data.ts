import type { TypedDataDomain, TypedDataField } from 'ethers';

export interface ParsedTypedData {
  domain: TypedDataDomain;
  types: Record<string, TypedDataField[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/**
 * Parses `eth_signTypedData_v4` JSON into what ethers signs. ethers derives the primary type
 * from the type graph and rejects `EIP712Domain`, so we keep only the types reachable from
 * the declared `primaryType`; the signature then matches what any v4 wallet produces.
 */
export function parseTypedData(json: string): ParsedTypedData {
  const value: unknown = JSON.parse(json);
  if (typeof value !== 'object' || value === null) throw new TypeError('typed data must be a JSON object');
  const { domain, types, primaryType, message } = value as Record<string, unknown>;
  if (typeof primaryType !== 'string' || typeof types !== 'object' || types === null || typeof message !== 'object' || message === null) {
    throw new TypeError('typed data needs types, primaryType and message');
  }
  const allTypes = types as Record<string, TypedDataField[]>;
  if (allTypes[primaryType] === undefined) throw new TypeError(`typed data has no type ${primaryType}`);
  return {
    domain: domain ?? {},
    types: reachableTypes(allTypes, primaryType),
    primaryType,
    message: message as Record<string, unknown>,
  };
}

function reachableTypes(types: Record<string, TypedDataField[]>, root: string): Record<string, TypedDataField[]> {
  const out: Record<string, TypedDataField[]> = {};
  const pending = [root];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    const fields = types[name];
    if (fields === undefined || out[name] !== undefined || name === 'EIP712Domain') continue;
    out[name] = fields;
    for (const field of fields) pending.push(field.type.replace(/(\[[0-9]*\])+$/, ''));
  }
  return out;
}
