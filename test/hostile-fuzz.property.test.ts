import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { listOperations, loadOpenApiDocs, type OpenApiDoc } from '../server/http/openapi-docs.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { createPayment, EVM_DEST, payableMerchant, USDC_BASE } from './helpers/payments.ts';

/**
 * Property, for every operation of every generated OpenAPI document: requests shaped by the
 * operation's own schema (so they get past the validator and into the handlers), with hostile
 * leaves — NUL, unpaired surrogates, extreme numbers, year-0000 and far-future timestamps, forged
 * cursors, JSON nested thousands deep — never get a 5xx, and every error has the documented
 * shape `{message, code, details?, issues?}`. Responses are validated against the spec too
 * (startTestApp), so an off-spec answer is a 500 here. (test/bad-input.property.test.ts covers
 * unshaped junk: wrong types, malformed JSON, odd paths.)
 */
type Schema = Record<string, any>;
type Param = { name: string; in: string; required?: boolean; schema?: Schema; $ref?: string };

const docs = loadOpenApiDocs();

const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\ud83d',
  'ok\ud83d\ude00',
  '',
  ' ',
  '%00',
  '\\u0000',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00.000Z',
  '1969-12-31T23:59:59Z',
  '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00.000Z',
  '1e308',
  '-1',
  'NaN',
  '9'.repeat(400),
  'é'.repeat(300),
  'iso4217/USD\u0000',
  'eip155:8453:0x\u0000',
];
const EXTREME_NUMBERS = [0, -1, 0.5, -0, 1e308, -1e308, 1e-300, 2 ** 53 + 2, -(2 ** 53), 2 ** 64, 4294967296];
const TIMESTAMPS = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z',
  '1970-01-01T00:00:00Z',
  '2026-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '2026-02-30T00:00:00Z',
  '2026-01-01T25:00:00Z',
];

const hostileString = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ unit: 'binary', maxLength: 20 }));
const hostileNumber = fc.oneof(fc.constantFrom(...EXTREME_NUMBERS), fc.double(), fc.integer());
const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const stats = { totalRevenue: [], totalTransactions: 0, totalCustomers: 0 };
const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const hostileCursor = fc.oneof(
  fc.constantFrom(
    b64({ before: 'mrch_\u0000' }),
    b64({ before: 'x\ud800' }),
    b64({ before: 12 }),
    b64({ id: 'pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ', v: 'abc', sort: 'amount:desc', stats }),
    b64({ id: 'pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ', v: '1e5', sort: 'amount:asc', stats }),
    b64({ id: 'pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ', v: '9'.repeat(500), sort: 'amount:desc', stats }),
    b64({ id: 'pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ', sort: 'date:desc', stats: { totalRevenue: [{ amount: 'x', currency: '\u0000' }], totalTransactions: -1 } }),
    b64({ id: 'pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ', sort: 'date:desc', stats: { totalRevenue: [{ amount: 1e308, currency: 'USD' }], totalTransactions: 1.5, totalCustomers: 0 } }),
    b64(`{"before":${deep(3000)}}`),
    b64('null'),
    b64('[]'),
    'not-base64!',
    '%00',
  ),
  hostileString.map(b64),
);

function deref<T>(doc: OpenApiDoc, node: T): T {
  let n = node as Schema;
  for (let i = 0; i < 10 && n && typeof n.$ref === 'string'; i++)
    n = n.$ref
      .split('/')
      .slice(1)
      .reduce((o: Schema, k: string) => o?.[k], doc as Schema);
  return n as T;
}

/** Values that pass for these fields, so requests reach past validation; chosen by name. */
function knownGood(name: string, ids: Ids): unknown[] {
  switch (name) {
    case 'asset':
      return [USDC_BASE];
    case 'destination':
      return [EVM_DEST];
    case 'accounts':
      return [['eip155:8453:0x00000000000000000000000000000000000000b1']];
    case 'unit':
      return ['iso4217/USD', 'iso4217/JPY'];
    case 'value':
      return ['1', '1050', '9'.repeat(40), '0'];
    case 'paymentId':
      return [ids.payment];
    case 'merchantEmail':
    case 'email':
      return ['a@shop.co'];
    case 'url':
    case 'iconUrl':
    case 'successUrl':
    case 'errorUrl':
      return ['https://hooks.example.test/x'];
    case 'expiresAt':
      return [null, Math.floor(Date.now() / 1000) + 600];
    default:
      return [];
  }
}

function stringArb(s: Schema, name: string, ids: Ids): fc.Arbitrary<unknown> {
  const good = knownGood(name, ids);
  const options: fc.Arbitrary<unknown>[] = [hostileString];
  if (good.length)
    options.push(
      fc.constantFrom(...good),
      fc.constantFrom(...good).map((g) => `${String(g)}\u0000`),
    );
  if (Array.isArray(s.enum)) options.push(fc.constantFrom(...(s.enum as unknown[])));
  if (s.format === 'date-time') options.push(fc.constantFrom(...TIMESTAMPS));
  if (typeof s.pattern === 'string') {
    try {
      options.push(fc.stringMatching(new RegExp(s.pattern)).map((v) => v.slice(0, 300)));
    } catch {
      // a pattern fast-check cannot generate from: the other options still apply
    }
  }
  return fc.oneof(...options);
}

/** An arbitrary shaped like `schema`, with hostile leaves mixed in. */
function shaped(doc: OpenApiDoc, schema: Schema | undefined, name: string, ids: Ids, depth = 0): fc.Arbitrary<unknown> {
  const s = deref(doc, schema ?? {});
  const good = knownGood(name, ids);
  if (depth > 5) return fc.oneof(hostileString, hostileNumber);
  const alternatives = s.anyOf ?? s.oneOf ?? (s.allOf?.length === 1 ? s.allOf : undefined);
  if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((a: Schema) => shaped(doc, a, name, ids, depth + 1)));
  if (good.length && s.type !== 'string') return fc.oneof(fc.constantFrom(...good), hostileString, hostileNumber);
  switch (s.type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) model[k] = shaped(doc, v, k, ids, depth + 1);
      if (!Object.keys(model).length) return fc.dictionary(hostileString, fc.oneof(hostileString, hostileNumber), { maxKeys: 3 });
      return fc.record(model, { requiredKeys: (s.required ?? []) as string[] });
    }
    case 'array':
      return fc.array(shaped(doc, s.items, name, ids, depth + 1), { maxLength: 3 });
    case 'string':
      return stringArb(s, name, ids);
    case 'integer':
    case 'number':
      return fc.oneof(hostileNumber, fc.integer({ min: 0, max: 100 }));
    case 'boolean':
      return fc.oneof(fc.boolean(), hostileString);
    default:
      return fc.oneof(hostileString, hostileNumber, fc.constant(null));
  }
}

interface Ids {
  merchant: string;
  payment: string;
  settlement: string;
  endpoint: string;
}

/** Path parameters: the real resource (so handlers run), or hostile bytes in the segment. */
function pathArb(name: string, path: string, ids: Ids): fc.Arbitrary<string> {
  const real =
    name === 'merchantId'
      ? ids.merchant
      : name === 'endpointId'
        ? ids.endpoint
        : name === 'eventId'
          ? 'evt_01ZZZZZZZZZZZZZZZZZZZZZZZZ'
          : path.includes('/settlements/')
            ? ids.settlement
            : ids.payment;
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(encodeURIComponent(real)) },
    fc.constantFrom(
      '%00',
      `${encodeURIComponent(real)}%00`,
      '%ED%A0%80',
      '%F0%9F',
      'a'.repeat(300),
      '1e308',
      '-1',
      '%2F..%2F',
      encodeURIComponent('https://pay.example.test/pay_\u0000'),
    ),
    hostileString.filter((v) => v.length > 0 && v.isWellFormed()).map(encodeURIComponent),
  );
}

const runs = Number(process.env.FUZZ_RUNS ?? 30);

describe.each([...docs.keys()])('hostile requests to every operation of %s: never a 5xx, always the error shape', (version) => {
  const doc = docs.get(version)!;
  const ops = listOperations(doc);
  let t: TestApp;
  const ids = {} as Ids;
  beforeAll(async () => {
    t = await startTestApp(await openEmbeddedStorage(), {
      allowLoopbackEndpoints: true,
      webhookLookup: async () => [{ address: '93.184.216.34' }],
    });
    // Pinned to this version, so every request runs under it unless the case says otherwise.
    const partner = await t.newPartner(version);
    Object.assign(t.a, partner);
    ids.merchant = await payableMerchant(t, t.a.key);
    ids.payment = (await createPayment(t, t.a.key, ids.merchant)).body.paymentId;
    ids.settlement = (await t.call('GET', `/v1/merchants/${ids.merchant}/settlements`, { key: t.a.key })).body.crypto[0].id;
    const endpoint = await t.call('POST', '/v1/webhook-endpoints', { key: t.a.key, body: { url: 'https://hooks.example.test/x', enabledEvents: ['payment.succeeded'] } });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    ids.endpoint = endpoint.body.endpoint.id;
  });
  afterAll(async () => {
    await t?.close();
    await t?.storage.close();
  });

  it.each(ops.map((o) => [o.operationId, o] as const))(
    '%s',
    async (_id, op) => {
      const operation = (doc.paths[op.path] as Record<string, Schema>)[op.method]!;
      const params = ((operation.parameters ?? []) as Param[]).map((p) => deref(doc, p));
      const pathNames = params.filter((p) => p.in === 'path').map((p) => p.name);
      const query = params.filter((p) => p.in === 'query');
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema as Schema | undefined;
      const queryArb = fc.record(
        Object.fromEntries(query.map((p) => [p.name, p.name === 'cursor' ? fc.oneof(hostileCursor, hostileString) : shaped(doc, p.schema, p.name, ids)])),
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            path: fc.tuple(...pathNames.map((n) => pathArb(n, op.path, ids))),
            query: queryArb,
            body: bodySchema ? shaped(doc, bodySchema, 'body', ids) : fc.constant(undefined),
            nest: fc.option(fc.integer({ min: 30, max: 5000 }), { nil: undefined, freq: 3 }),
            merchantId: fc.oneof(fc.constant(ids.merchant), fc.constantFrom('mrch_x', 'é', '1e308', ' ')),
            idem: fc.option(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }), { nil: undefined }),
            version: fc.option(fc.constantFrom('2026-02-18', '2026-02-19.preview', '0000-01-01', '9999-99-99'), { nil: undefined }),
          }),
          async ({ path: segs, query: q, body, nest, merchantId, idem, version: v }) => {
            let i = 0;
            const path = op.path.replace(/\{[^}]+\}/g, () => segs[i++]!);
            const search = new URLSearchParams();
            for (const [k, val] of Object.entries(q)) {
              for (const one of Array.isArray(val) ? val : [val]) search.append(k, typeof one === 'string' ? one : JSON.stringify(one));
            }
            const headers: Record<string, string> = { 'Merchant-Id': merchantId, 'Content-Type': 'application/json' };
            if (idem !== undefined) headers['Idempotency-Key'] = idem;
            if (v) headers['Svc-Version'] = v;
            const key = op.auth.includes('partner') ? t.a.key : t.a.walletKey;
            let raw: string | undefined;
            if (body !== undefined) {
              raw = JSON.stringify(body);
              // Deep nesting in a field the schema does not know, as an attacker would hide it.
              if (nest !== undefined && raw.startsWith('{')) raw = `{"zz":${deep(nest)}${raw.length > 2 ? ',' : ''}${raw.slice(1)}`;
            }
            const qs = search.toString();
            const r = await t.call(op.method.toUpperCase(), `${path}${qs ? `?${qs}` : ''}`, { key, headers, ...(raw !== undefined ? { rawBody: raw } : {}) });
            const shown = `${op.method.toUpperCase()} ${path}?${qs} ${raw?.slice(0, 300)} → ${r.status} ${JSON.stringify(r.body)?.slice(0, 300)}`;
            expect(r.status, shown).toBeLessThan(500);
            if (r.status >= 400) {
              expect(typeof r.body?.message, shown).toBe('string');
              expect(typeof r.body?.code, shown).toBe('string');
              expect(
                Object.keys(r.body).filter((k) => !['message', 'code', 'details', 'issues'].includes(k)),
                shown,
              ).toEqual([]);
              if (r.body.issues !== undefined) {
                expect(Array.isArray(r.body.issues), shown).toBe(true);
                for (const issue of r.body.issues) expect(typeof issue.field === 'string' && typeof issue.message === 'string', shown).toBe(true);
              }
            }
          },
        ),
        { numRuns: runs },
      );
    },
    60_000,
  );
});
