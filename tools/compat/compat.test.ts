import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDeviations } from './deviations.ts';
import { createReferenceValidator } from './reference-validator.ts';
import { schemaDifferences } from './schema-diff.ts';
import type { Json } from './schema-model.ts';

const doc = { root: {} };
const diff = (sub: Json, sup: Json, undeclaredBreaks = false) =>
  schemaDifferences({ doc, schema: sub }, { doc, schema: sup }, { undeclaredBreaks })
    .filter((d) => d.breaking)
    .map((d) => `${d.path} ${d.kind}`);

describe('schema differences, direction-aware', () => {
  it('reports what the subset side may produce and the other refuses, and nothing the other accepts', () => {
    // Responses: sub = ours, sup = the reference's.
    expect(diff({ type: 'string', enum: ['a', 'b'] }, { type: 'string', enum: ['a'] })).toEqual([' enum']);
    expect(diff({ type: 'string', enum: ['a'] }, { type: 'string', enum: ['a', 'b'] })).toEqual([]);
    expect(diff({ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', required: ['a'], properties: { a: { type: 'string' } } })).toEqual(['.a required']);
    expect(diff({ type: 'object', properties: { b: {} } }, { type: 'object', additionalProperties: false, properties: {} })).toEqual(['.b forbidden']);
    expect(diff({ type: 'string', nullable: true }, { type: 'string' })).toEqual([' nullable']);
    expect(diff({ type: 'string', nullable: true }, { type: ['string', 'null'] })).toEqual([]);
    expect(diff({ type: 'integer' }, { type: 'integer', minimum: 0 })).toEqual([' range']);
    expect(diff({ type: 'string', maxLength: 10 }, { type: 'string', maxLength: 64 })).toEqual([]);
    // 3.1's `oneOf: [null, X]` is 3.0's nullable X.
    expect(diff({ allOf: [{ type: 'string' }], nullable: true }, { oneOf: [{ type: 'null' }, { type: 'string' }] })).toEqual([]);
    // A field the reference may send and we never do is valid, so only informative.
    const unsupplied = schemaDifferences(
      { doc, schema: { type: 'object', properties: { a: {} } } },
      { doc, schema: { type: 'object', properties: { a: {}, b: {} } } },
      { undeclaredBreaks: false },
    );
    expect(unsupplied).toEqual([expect.objectContaining({ path: '.b', kind: 'unsupplied', breaking: false })]);
    expect(diff({ type: 'array', items: { type: 'string', enum: ['x', 'y'] } }, { type: 'array', items: { type: 'string', enum: ['x'] } })).toEqual(['[] enum']);
  });
});

describe('the reference validator', () => {
  const deviationsFile = (text: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'compat-')), 'deviations.yaml');
    writeFileSync(path, text);
    return loadDeviations(path);
  };
  const status = { status: 'succeeded', isFinal: true, pollInMs: null };

  it('fails an answer the reference refuses, naming operation, status, path and value', () => {
    const v = createReferenceValidator('2026-02-18', []);
    expect(v.check('GET', '/v1/payments/pay_1/status', 200, status).violations).toEqual([]);
    const [violation, ...rest] = v.check('GET', '/v1/payments/pay_1/status', 200, { ...status, status: 'refunded' }).violations;
    expect(rest).toEqual([]);
    expect(violation).toMatch(/^GET \/v1\/payments\/\{id\}\/status → 200 at \/status: .*allowedValues.*; value "refunded"$/);
    expect(v.check('GET', '/v1/payments/pay_1/status', 200, { isFinal: true }).violations[0]).toMatch(/missingProperty.*status/);
    expect(v.check('GET', '/v1/payments/pay_1/status', 429, { code: 'rate_limited', message: 'slow down' }).violations[0]).toMatch(/documents no 429/);
    expect(v.check('GET', '/v1/webhook-endpoints', 200, {}).violations[0]).toMatch(/no such operation/);
  });

  it('checks what the scripted client sends against the reference request schema', () => {
    const v = createReferenceValidator('2026-02-18', []);
    expect(v.checkRequest('POST', '/v1/refunds', { paymentId: 'pay_1' })).toEqual([]);
    expect(v.checkRequest('POST', '/v1/refunds', {})[0]).toMatch(/^POST \/v1\/refunds \(request\) at \/: .*missingProperty.*paymentId/);
    expect(v.checkRequest('GET', '/v1/merchants', undefined)).toEqual([]);
  });

  it('tolerates a listed deviation at its own path only', () => {
    const v = createReferenceValidator(
      '2026-02-18',
      deviationsFile(
        `- key: "GET /v1/payments/{id}/status response.200.body.status enum"\n  reason: "improvement: test"\n- key: "* response.429 undocumented-status"\n  reason: "improvement: test"\n`,
      ),
    );
    expect(v.check('GET', '/v1/payments/pay_1/status', 200, { ...status, status: 'refunded' }).violations).toEqual([]);
    expect(v.check('GET', '/v1/payments/pay_1/status', 200, { ...status, status: 'refunded', isFinal: 'yes' }).violations[0]).toMatch(/at \/isFinal: must be boolean/);
    expect(v.check('GET', '/v1/gateway/payment/pay_1/status', 200, { ...status, status: 'refunded' }).violations).not.toEqual([]);
    // An undocumented status is held to the operation's documented error shape.
    expect(v.check('GET', '/v1/payments/pay_1/status', 429, { code: 'rate_limited', message: 'slow down' }).violations).toEqual([]);
    expect(v.check('GET', '/v1/payments/pay_1/status', 429, { message: 'no code' }).violations[0]).toMatch(/missingProperty.*code/);
  });
});
