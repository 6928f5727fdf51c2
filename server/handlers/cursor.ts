import { validationError } from '../errors.ts';

/**
 * Opaque keyset cursors: base64url of the position, never an offset, so page 1000 costs what
 * page 1 costs and inserts between requests cause no duplicates or gaps.
 */
export function encodeCursor(position: object): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The position in a cursor this service issued, or a 400 on `query.cursor`. */
export function decodeCursorAs<T>(cursor: string, isPosition: (x: Record<string, unknown>) => boolean, message = 'is not a cursor this service issued'): T {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (parsed && typeof parsed === 'object' && isPosition(parsed as Record<string, unknown>)) return parsed as T;
  } catch {
    // fall through to the validation error
  }
  throw validationError([{ field: 'query.cursor', message }]);
}

/** A cursor whose position is the named string fields (e.g. `{ before: <id> }`). */
export function decodeCursor<K extends string>(cursor: string | undefined, keys: readonly K[]): Record<K, string> | undefined {
  if (cursor === undefined) return undefined;
  return decodeCursorAs<Record<K, string>>(cursor, (p) => keys.every((k) => typeof p[k] === 'string'));
}
