import { validationError } from '../errors.ts';
import { hostileIssues } from '../http/hostile-input.ts';

/**
 * Opaque keyset cursors: base64url of the position, never an offset, so page 1000 costs what
 * page 1 costs and inserts between requests cause no duplicates or gaps.
 *
 * A cursor comes back from the client, so it is input like any other: anyone can base64 a JSON
 * object of their choosing. Every position is checked field by field when decoded (an id that
 * looks like an id, a sort value made of digits), and refused as 400 on `query.cursor` rather
 * than handed to a query that would fail on it.
 */
export function encodeCursor(position: object): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** Ids are `<prefix>_<alphanumerics>`; a cursor naming anything else was not issued here. */
const ID = /^[a-z]{2,12}_[0-9A-Za-z]{1,100}$/;
export const isCursorId = (v: unknown): v is string => typeof v === 'string' && ID.test(v);

/** The position in a cursor this service issued, or a 400 on `query.cursor`. */
export function decodeCursorAs<T>(cursor: string, isPosition: (x: Record<string, unknown>) => boolean, message = 'is not a cursor this service issued'): T {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    // Shallow and clean before any field check runs (the checks may recurse or echo values).
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && hostileIssues(parsed, 'cursor', 6, 1).length === 0 && isPosition(parsed as Record<string, unknown>))
      return parsed as T;
  } catch {
    // fall through to the validation error
  }
  throw validationError([{ field: 'query.cursor', message }]);
}

/** A cursor whose position is the named id fields (e.g. `{ before: <id> }`). */
export function decodeCursor<K extends string>(cursor: string | undefined, keys: readonly K[]): Record<K, string> | undefined {
  if (cursor === undefined) return undefined;
  return decodeCursorAs<Record<K, string>>(cursor, (p) => keys.every((k) => isCursorId(p[k])));
}
