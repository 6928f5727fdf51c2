import type { Request, RequestHandler } from 'express';
import { validationError, type ValidationIssue } from '../errors.ts';
import { contextOf } from './context.ts';

/**
 * Bytes no part of the service can store or should ever see, refused in one place before
 * anything else reads the request. PostgreSQL rejects U+0000 in text and jsonb and rejects
 * unpaired UTF-16 surrogates (which JSON's `\ud800` escapes can produce); left in, they surface
 * as a 500 from whichever query first touches them. A JSON body nested past `MAX_JSON_DEPTH`
 * is refused here too: JSON.parse is iterative in V8, but validators, canonicalisation and the
 * database's jsonb code recurse, and a 1 MB body can nest half a million levels.
 */
export const MAX_JSON_DEPTH = 32;

/** Why a string cannot be accepted, or null. `isWellFormed` is native and finds lone surrogates. */
export function badString(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain NUL (\\u0000) characters';
  if (!s.isWellFormed()) return 'must not contain unpaired UTF-16 surrogates';
  return null;
}

/** `settlements[0].asset` style, as the validator names fields. */
function childField(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent ? `${parent}.${key}` : key;
}

/** A value met on the walk: its field name is built only when it has an issue. */
interface Visit {
  value: unknown;
  parent: Visit | null;
  key: string | number;
  depth: number;
}

function fieldOf(v: Visit): string {
  return v.parent ? childField(fieldOf(v.parent), v.key) : String(v.key);
}

/**
 * Every bad string (values and object keys) under `root`, and nesting past `maxDepth`, as issues.
 * An explicit stack, not recursion: the input is what is being guarded against. Stops at the
 * first few issues: one per field is enough to fix a request, and a hostile one may have millions.
 */
export function hostileIssues(root: unknown, rootField: string, maxDepth = MAX_JSON_DEPTH, maxIssues = 10): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: Visit[] = [{ value: root, parent: null, key: rootField, depth: 0 }];
  while (stack.length && issues.length < maxIssues) {
    const visit = stack.pop()!;
    const { value, depth } = visit;
    if (typeof value === 'string') {
      const why = badString(value);
      if (why) issues.push({ field: fieldOf(visit) || 'body', message: why });
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (depth >= maxDepth) {
      issues.push({ field: fieldOf(visit) || 'body', message: `is nested more than ${maxDepth} levels deep` });
      continue;
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: visit, key: i, depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      const why = badString(key);
      if (why) {
        issues.push({ field: fieldOf(visit) || 'body', message: `has a field name that ${why}` });
        continue;
      }
      stack.push({ value: (value as Record<string, unknown>)[key], parent: visit, key, depth: depth + 1 });
    }
  }
  return issues;
}

/** Issues in the parts of a request a handler may read: path parameters, query, headers, body. */
export function requestIssues(req: Request, pathParams: Record<string, string> | undefined): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const name in pathParams) {
    const why = badString(pathParams[name]!);
    if (why) issues.push({ field: `path.${name}`, message: why });
  }
  // The query parser nests at most a few levels (qs's depth limit), so this walk is short.
  issues.push(...hostileIssues(req.query, 'query'));
  // Node's HTTP parser refuses NUL in headers and header values are Latin-1, so this finds
  // nothing today; it is here so a change of server or parser cannot quietly let one through.
  // The raw list (name, value, name, value…) holds every value, repeated headers included.
  const raw = req.rawHeaders;
  for (let i = 1; i < raw.length; i += 2) {
    const why = badString(raw[i]!);
    if (why) issues.push({ field: `header.${raw[i - 1]!.toLowerCase()}`, message: why });
  }
  if (req.body !== undefined) issues.push(...hostileIssues(req.body, ''));
  return issues;
}

/** Throws 400 `params_validation` naming each bad field (for routes outside the API chain). */
export function assertNoHostileInput(req: Request, pathParams?: Record<string, string>): void {
  const issues = requestIssues(req, pathParams);
  if (issues.length) throw validationError(issues);
}

/** The API chain's step: before anything else reads the request. */
export function rejectHostileInput(): RequestHandler {
  return (req, res, next) => {
    try {
      assertNoHostileInput(req, contextOf(res)?.pathParams);
      next();
    } catch (err) {
      next(err);
    }
  };
}
