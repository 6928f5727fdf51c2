import { validationError } from '../errors.ts';

/**
 * Opaque keyset cursors: base64url of the position, never an offset, so page 1000 costs what
 * page 1 costs and inserts between requests cause no duplicates or gaps.
 */
export function encodeCursor(position: Record<string, string>): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

export function decodeCursor<K extends string>(cursor: string | undefined, keys: readonly K[]): Record<K, string> | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (parsed && typeof parsed === 'object' && keys.every((k) => typeof parsed[k] === 'string')) return parsed as Record<K, string>;
  } catch {
    // fall through to the validation error
  }
  throw validationError([{ field: 'query.cursor', message: 'is not a cursor this service issued' }]);
}
