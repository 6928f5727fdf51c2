import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { referenceDocumentPath } from './compare-openapi.ts';
import { loadDeviations, matches, type ParsedDeviation } from './deviations.ts';
import { resolvePointer, type Json, type Schema } from './schema-model.ts';

/**
 * Validates real answers against the reference document's schema for their operation and status.
 *
 * A listed deviation relaxes exactly its own place in a copy of that schema: `required` drops the
 * one property from its parent's `required`, any other kind makes the one value at its path
 * unconstrained, and `undocumented-status` lets a status the reference lacks be checked against
 * the operation's documented 400 error schema. Everything else must hold as the reference says.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface CheckResult {
  /** Readable violations: operation, status, JSON path, the value. Empty when the answer is valid. */
  violations: string[];
  operation: string;
}

interface RefOperation {
  operation: string;
  pattern: RegExp;
  literalSegments: number;
  responses: Record<string, Json>;
  requestBody?: Json;
}

export function createReferenceValidator(version: string, deviations: ParsedDeviation[] = loadDeviations()) {
  const root = JSON.parse(readFileSync(referenceDocumentPath(version), 'utf8')) as Schema;
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
  for (const f of ['int32', 'int64']) ajv.addFormat(f, { type: 'number', validate: (n: number) => Number.isInteger(n) });
  const operations: RefOperation[] = [];
  for (const [path, item] of Object.entries(root.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      const segments = path.split('/');
      operations.push({
        operation: `${method.toUpperCase()} ${path}`,
        pattern: new RegExp(`^${method.toUpperCase()} ${path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        literalSegments: segments.filter((s) => !s.startsWith('{')).length,
        responses: op.responses as Record<string, Json>,
        ...(op.requestBody ? { requestBody: op.requestBody } : {}),
      });
    }
  }
  // `/v1/merchants/payments` before `/v1/merchants/{merchantId}`.
  operations.sort((a, b) => b.literalSegments - a.literalSegments);
  const cache = new Map<string, { strict: ValidateFunction; relaxed: ValidateFunction; base: string }>();
  const requestCache = new Map<string, ValidateFunction | null>();
  const used = new Set<ParsedDeviation>();

  const inline = (node: Json, seen: string[] = []): Json => {
    if (Array.isArray(node)) return node.map((n) => inline(n, seen));
    if (!node || typeof node !== 'object') return node;
    if (typeof node.$ref === 'string') {
      const ref = node.$ref;
      if (seen.includes(ref)) return {};
      const { $ref: _r, ...rest } = node;
      return { ...(inline(resolvePointer(root, ref) ?? {}, [...seen, ref]) as Schema), ...(inline(rest, seen) as Schema) };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'example' || k === 'examples' ? v : inline(v, seen)]));
  };

  const bodySchema = (response: Json | undefined): Schema => {
    const r = inline(response ?? {}) as Schema;
    const content = (r.content ?? {}) as Record<string, Schema>;
    return (content['application/json']?.schema as Schema | undefined) ?? {};
  };

  function compiled(op: RefOperation, status: string) {
    const key = `${op.operation} ${status}`;
    let entry = cache.get(key);
    if (entry) return entry;
    const documented = op.responses[status];
    let schema: Schema;
    if (documented !== undefined) schema = bodySchema(documented);
    else {
      const undocumented = { operation: op.operation, location: `response.${status}`, kind: 'undocumented-status' };
      const listed = deviations.filter((d) => matches(d, version, undocumented));
      if (!listed.length) return null;
      listed.forEach((d) => used.add(d));
      schema = bodySchema(op.responses['400'] ?? Object.entries(op.responses).find(([s]) => s.startsWith('4'))?.[1]);
    }
    const base = `response.${status}.body`;
    const relaxed = structuredClone(schema);
    relax(
      relaxed,
      base,
      deviations.filter((d) => (d.versions ?? [version]).includes(version) && d.operation.test(op.operation)),
    );
    entry = { strict: ajv.compile(schema), relaxed: ajv.compile(relaxed), base };
    cache.set(key, entry);
    return entry;
  }

  return {
    /** Checks one answer: `path` as requested (query string ignored), the status and parsed JSON body. */
    check(method: string, path: string, status: number, body: unknown): CheckResult {
      const route = `${method.toUpperCase()} ${path.split('?')[0]}`;
      const op = operations.find((o) => o.pattern.test(route));
      if (!op) return { operation: route, violations: [`${route}: the reference has no such operation`] };
      const c = compiled(op, String(status));
      if (!c)
        return {
          operation: op.operation,
          violations: [`${op.operation} → ${status}: the reference documents no ${status} here and compat/deviations.yaml lists no undocumented-status for it`],
        };
      if (!c.strict(body)) {
        for (const e of c.strict.errors ?? []) {
          const location = c.base + pathOf(e);
          for (const d of deviations) if (d.operation.test(op.operation) && d.location.test(location) && (d.versions ?? [version]).includes(version)) used.add(d);
        }
      }
      if (c.relaxed(body)) return { operation: op.operation, violations: [] };
      return { operation: op.operation, violations: describe(op.operation, status, body, c.relaxed.errors ?? []) };
    },
    /**
     * Checks a request body the scripted client sends against the reference's request schema, so
     * the session only ever sends what a client written from the reference document could send.
     */
    checkRequest(method: string, path: string, body: unknown): string[] {
      const route = `${method.toUpperCase()} ${path.split('?')[0]}`;
      const op = operations.find((o) => o.pattern.test(route));
      if (!op) return [`${route}: the reference has no such operation`];
      if (!requestCache.has(op.operation)) {
        const schema = op.requestBody === undefined ? null : bodySchema(op.requestBody);
        requestCache.set(op.operation, schema ? ajv.compile(schema) : null);
      }
      const validate = requestCache.get(op.operation);
      if (!validate) return body === undefined ? [] : [`${op.operation}: the reference takes no request body`];
      if (validate(body)) return [];
      return describe(`${op.operation} (request)`, 0, body, validate.errors ?? []).map((m) => m.replace(' → 0', ''));
    },
    /** Every operation of the reference document. */
    operations: () => operations.map((o) => o.operation),
    /** The deviations some answer needed (for `checkedBy: test` entries, which must stay true). */
    used: () => new Set(used),
  };
}

/** `/data/0/status` → `.data[].status`; a missing required property is named on its own path. */
function pathOf(e: ErrorObject): string {
  const segments = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? '[]' : `.${s.replace(/~1/g, '/').replace(/~0/g, '~')}`));
  if (e.keyword === 'required') segments.push(`.${(e.params as { missingProperty: string }).missingProperty}`);
  return segments.join('');
}

function valueAt(body: unknown, instancePath: string): unknown {
  let node = body;
  for (const raw of instancePath.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

function describe(operation: string, status: number, body: unknown, errors: ErrorObject[]): string[] {
  // oneOf/anyOf failures repeat every branch's complaint; the branch errors below say what is wrong.
  const useful = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf') || errors;
  return (useful.length ? useful : errors).map((e) => {
    const value = JSON.stringify(valueAt(body, e.instancePath));
    return `${operation} → ${status} at ${e.instancePath || '/'}: ${e.message ?? e.keyword}${e.params ? ` ${JSON.stringify(e.params)}` : ''}; value ${value && value.length > 200 ? `${value.slice(0, 200)}…` : value}`;
  });
}

/** Applies the deviations to one inlined response schema, in place, each at its own path only. */
function relax(schema: Schema, base: string, deviations: ParsedDeviation[]): void {
  if (!deviations.length) return;
  const visit = (node: Json, path: string) => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return;
    if (Array.isArray(node.required)) {
      node.required = node.required.filter((name) => typeof name !== 'string' || !deviations.some((d) => d.kind === 'required' && d.location.test(`${base}${path}.${name}`)));
    }
    if (deviations.some((d) => d.kind !== 'required' && d.kind !== 'undocumented-status' && d.location.test(`${base}${path}`))) {
      for (const k of Object.keys(node)) delete node[k];
      return;
    }
    for (const k of ['allOf', 'oneOf', 'anyOf'] as const) if (Array.isArray(node[k])) for (const branch of node[k]) visit(branch, path);
    if (node.properties && typeof node.properties === 'object' && !Array.isArray(node.properties))
      for (const [name, child] of Object.entries(node.properties)) visit(child, `${path}.${name}`);
    if (node.items) visit(node.items, `${path}[]`);
    if (node.additionalProperties && typeof node.additionalProperties === 'object') visit(node.additionalProperties, `${path}{}`);
  };
  visit(schema, '');
}
