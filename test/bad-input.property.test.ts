import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { listOperations, loadOpenApiDocs } from '../server/http/openapi-docs.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';

/**
 * Property: whatever a client sends to any operation — wrong types, missing fields, junk ids,
 * malformed JSON, odd headers — the answer is never a 5xx and always the documented error shape.
 */
const ops = listOperations(loadOpenApiDocs().get('2026-02-19.preview')!);

const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('', '0', '-1', '1e309', 'NaN', 'pay_', 'mrch_', '../..', '%00', '\u0000', 'ﬀ', 'eip155:1:0x', 'iso4217/USD', 'x'.repeat(300)),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);
const junkBody = fc.oneof(
  fc.dictionary(
    fc.constantFrom(
      'merchantName',
      'merchantEmail',
      'iconUrl',
      'settlements',
      'amount',
      'referenceId',
      'expiresAt',
      'destination',
      'accounts',
      'optionId',
      'results',
      'data',
      'paymentId',
      'checkout',
      'x',
    ),
    junkValue,
    { maxKeys: 5 },
  ),
  junkValue,
);
const pathSegment = fc.oneof(
  fc.constantFrom('ID', 'MERCHANT', 'pay_01ZZZZZZZZZZZZZZZZZZZZZZZZ', 'mrch_x', 'crypto_x', '%E0%A4%A', '%2F', 'a'.repeat(500)),
  fc.string({ minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);

describe('bad input never causes a 5xx, and errors keep their shape', () => {
  let t: TestApp;
  let merchant: string;
  let payment: string;
  beforeAll(async () => {
    t = await startTestApp(await openEmbeddedStorage());
    merchant = await payableMerchant(t, t.a.key);
    payment = (await createPayment(t, t.a.key, merchant)).body.paymentId;
  });
  afterAll(async () => {
    await t?.close();
    await t?.storage.close();
  });

  it.each(ops.map((o) => [o.operationId, o] as const))(
    '%s',
    async (_id, op) => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            segs: fc.array(pathSegment, { minLength: 3, maxLength: 3 }),
            body: junkBody,
            raw: fc.option(fc.constantFrom('{', '[1,', '"x"', 'null', '{"a":}', '\u0000'), { nil: undefined }),
            query: fc.dictionary(
              fc.constantFrom('limit', 'cursor', 'status', 'search', 'startTs', 'sortBy', 'merchantId', 'maxPollMs', 'includePaymentInfo', 'zz'),
              fc.string({ maxLength: 12 }),
              { maxKeys: 3 },
            ),
            key: fc.constantFrom('partner', 'wallet', 'none', 'junk'),
            idem: fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
            version: fc.option(fc.constantFrom('2026-02-18', '2026-02-19.preview', '2099-01-01', 'x'), { nil: undefined }),
          }),
          async ({ segs, body, raw, query, key, idem, version }) => {
            let i = 0;
            const path = op.path.replace(/\{[^}]+\}/g, () => {
              const s = segs[i++]!;
              return s === 'ID' ? payment : s === 'MERCHANT' ? merchant : s;
            });
            const qs = new URLSearchParams(query).toString();
            const headers: Record<string, string> = { 'Merchant-Id': merchant };
            if (idem !== undefined) headers['Idempotency-Key'] = idem.replace(/[^\x20-\x7e]/g, '');
            if (version) headers['Svc-Version'] = version;
            const apiKey = key === 'partner' ? t.a.key : key === 'wallet' ? t.a.walletKey : key === 'junk' ? 'sk_test_junkjunkjunkjunkjunk' : undefined;
            const hasBody = op.method !== 'get' && op.method !== 'delete';
            const r = await t.call(op.method.toUpperCase(), `${path}${qs ? `?${qs}` : ''}`, {
              ...(apiKey ? { key: apiKey } : {}),
              headers: { ...headers, ...(hasBody && raw !== undefined ? { 'Content-Type': 'application/json' } : {}) },
              ...(!hasBody ? {} : raw !== undefined ? { rawBody: raw } : { body }),
            });
            expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
            if (r.status >= 400) {
              expect(typeof r.body?.message, JSON.stringify(r.body)).toBe('string');
              expect(typeof r.body?.code).toBe('string');
            }
          },
        ),
        { numRuns: 40 },
      );
    },
    120_000,
  );
});
