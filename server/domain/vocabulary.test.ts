import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_STATUS, UNDECLARED_ERROR_CODES, type ErrorCode } from '../errors.ts';
import { API_VERSIONS } from './vocabulary.ts';
import { PAYMENT_STATUSES } from './payments/state-machine.ts';
import { WEBHOOK_EVENT_TYPES } from './webhooks/event-types.ts';
import { declaresEvent } from './payments/wire-versions.ts';
import { API_VERSIONS as HTTP_VERSIONS } from '../http/versions.ts';
import { VERSIONS as COMPARED_VERSIONS } from '../../tools/compat/compare-openapi.ts';

/**
 * The runtime lists against the generated OpenAPI documents themselves (typecheck already holds
 * them equal to the generated types; this reads what a client reads).
 */
type Node = Record<string, unknown>;
const openapiDir = resolve(import.meta.dirname, '../../generated/openapi');
const documents = readdirSync(openapiDir)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => ({ file: f, doc: YAML.parse(readFileSync(join(openapiDir, f), 'utf8')) as Node }));

const schemas = (doc: Node) => (doc.components as { schemas: Record<string, Node> }).schemas;
const deref = (doc: Node, s: Node | undefined): Node | undefined => (typeof s?.$ref === 'string' ? deref(doc, schemas(doc)[s.$ref.split('/').pop()!]) : s);

/** The `code` values a response body schema allows. */
function codesOf(doc: Node, schema: Node | undefined): string[] {
  const s = deref(doc, schema);
  if (!s) return [];
  const parts = (s.allOf ?? s.anyOf ?? s.oneOf) as Node[] | undefined;
  if (parts) return parts.flatMap((p) => codesOf(doc, p));
  const code = deref(doc, (s.properties as Record<string, Node> | undefined)?.code);
  return (code?.enum as string[] | undefined) ?? [];
}

/** Every (operation, HTTP status, code) the documents declare. */
const declared = documents.flatMap(({ file, doc }) =>
  Object.values(doc.paths as Record<string, Record<string, Node>>).flatMap((item) =>
    Object.values(item)
      .filter((op) => op.responses)
      .flatMap((op) =>
        Object.entries(op.responses as Record<string, Node>).flatMap(([status, response]) => {
          const body = (response.content as Record<string, { schema: Node }> | undefined)?.['application/json']?.schema;
          return codesOf(doc, body).map((code) => ({ file, operation: op.operationId as string, status: Number(status), code }));
        }),
      ),
  ),
);

describe('the vocabulary is the spec’s', () => {
  it('reads error codes out of the documents (the walk finds them)', () => {
    expect(declared.length).toBeGreaterThan(100);
    expect(declared).toContainEqual(expect.objectContaining({ operation: 'createMerchant', status: 400, code: 'missing_idempotency_key' }));
  });

  it('API versions: one per generated document, in the order the spec lists them, used by the HTTP layer and the compat tool', () => {
    // The generator orders documents by name; the spec's Versions enum must list them in that order (oldest first).
    const tsp = readFileSync(resolve(import.meta.dirname, '../../spec/main.tsp'), 'utf8');
    const enumBody = /enum Versions \{([^}]*)\}/.exec(tsp)?.[1] ?? '';
    expect([...enumBody.matchAll(/:\s*"([^"]+)"/g)].map((m) => m[1])).toEqual([...API_VERSIONS]);
    expect(documents.map((d) => d.file)).toEqual(API_VERSIONS.map((v) => `${v}.yaml`));
    expect(documents.map((d) => (d.doc.info as Node).version)).toEqual([...API_VERSIONS]);
    expect(HTTP_VERSIONS).toBe(API_VERSIONS);
    expect(COMPARED_VERSIONS).toBe(API_VERSIONS);
  });

  it.each(documents)('payment statuses equal $file’s enum; the event types its version sends equal its WebhookEventType', ({ file, doc }) => {
    const version = file.slice(0, -'.yaml'.length);
    expect([...PAYMENT_STATUSES].sort()).toEqual([...(schemas(doc).PaymentStatus!.enum as string[])].sort());
    expect(WEBHOOK_EVENT_TYPES.filter((t) => declaresEvent(t, version)).sort()).toEqual([...(schemas(doc).WebhookEventType!.enum as string[])].sort());
  });

  it('the newest document declares every event type the runtime knows', () => {
    expect([...WEBHOOK_EVENT_TYPES].sort()).toEqual([...(schemas(documents.at(-1)!.doc).WebhookEventType!.enum as string[])].sort());
  });

  it('every error code an operation declares is in ERROR_STATUS, with a status the spec declares it with', () => {
    // A code may be declared under more than one status (invalid_state: 400, and 409 where a race
    // was lost); ours is its default, so it must be one of them.
    const wrong = [...new Set(declared.map((d) => d.code))].filter((code) => {
      const ours = (ERROR_STATUS as Record<string, number>)[code];
      return ours === undefined || !declared.some((d) => d.code === code && d.status === ours);
    });
    expect(wrong).toEqual([]);
  });

  it('ERROR_STATUS holds nothing beyond the declared codes and the listed undeclared ones', () => {
    const declaredCodes = new Set(declared.map((d) => d.code));
    const extra = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter((c) => !declaredCodes.has(c));
    expect(extra.sort()).toEqual([...UNDECLARED_ERROR_CODES].sort());
    for (const c of UNDECLARED_ERROR_CODES) expect(declaredCodes.has(c)).toBe(false);
  });

  it('an AppError answers the status ERROR_STATUS gives its code', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) expect(new AppError(code as ErrorCode, 'x').status).toBe(status);
  });
});
