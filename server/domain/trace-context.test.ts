import { describe, expect, it } from 'vitest';
import { currentTrace, newTraceId, outsideTrace, parseTraceparent, runInTrace, traceLogFields, traceparentFor, withPayment } from './trace-context.ts';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

describe('parseTraceparent', () => {
  it('takes the trace id of a version-00 header and echoes it', () => {
    expect(parseTraceparent(`00-${TRACE}-${PARENT}-01`)).toEqual({ traceId: TRACE, echo: `00-${TRACE}-${PARENT}-01` });
    expect(parseTraceparent(` 00-${TRACE}-${PARENT}-00 `)?.traceId).toBe(TRACE);
  });

  it('reads the four fields of a later version and ignores what follows them', () => {
    expect(parseTraceparent(`01-${TRACE}-${PARENT}-01-what-comes-later`)).toEqual({ traceId: TRACE, echo: `01-${TRACE}-${PARENT}-01` });
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['version ff', `ff-${TRACE}-${PARENT}-01`],
    ['all-zero trace id', `00-${'0'.repeat(32)}-${PARENT}-01`],
    ['all-zero parent id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['upper-case hex', `00-${TRACE.toUpperCase()}-${PARENT}-01`],
    ['a short trace id', `00-${TRACE.slice(1)}-${PARENT}-01`],
    ['version 00 with more fields', `00-${TRACE}-${PARENT}-01-extra`],
    ['a later version run on without a dash', `01-${TRACE}-${PARENT}-01x`],
    ['non-hex', `00-${TRACE.replace('4', 'g')}-${PARENT}-01`],
    ['a huge header', `01-${TRACE}-${PARENT}-01-${'a'.repeat(10_000)}`],
    ['an injection attempt', `00-${TRACE}-${PARENT}-01\n{"traceId":"forged"}`],
  ])('ignores %s', (_what, header) => {
    expect(parseTraceparent(header)).toBeUndefined();
  });
});

describe('trace context', () => {
  it('is seen across awaits and timers inside, and nowhere outside', async () => {
    expect(currentTrace()).toBeUndefined();
    const seen = await runInTrace({ traceId: 't1' }, async () => {
      await new Promise((r) => setTimeout(r, 5));
      return currentTrace();
    });
    expect(seen).toEqual({ traceId: 't1' });
    expect(currentTrace()).toBeUndefined();
  });

  it('narrows to a payment, and background work steps out of it', () => {
    runInTrace({ traceId: 't2' }, () => {
      withPayment('pay_1', () => expect(traceLogFields()).toEqual({ traceId: 't2', paymentId: 'pay_1' }));
      expect(traceLogFields()).toEqual({ traceId: 't2' });
      outsideTrace(() => expect(traceLogFields()).toEqual({}));
    });
  });

  it('gives the log mixin a fresh object each time (pino merges the line into it)', () => {
    runInTrace({ traceId: 't3' }, () => {
      const a = traceLogFields();
      Object.assign(a, { extra: 1 });
      expect(traceLogFields()).toEqual({ traceId: 't3' });
    });
    expect(Object.isFrozen(traceLogFields())).toBe(false);
  });
});

describe('traceparentFor', () => {
  it('continues a W3C trace id with a new parent id per call', () => {
    const a = traceparentFor(TRACE)!;
    expect(a).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
    expect(parseTraceparent(a)?.traceId).toBe(TRACE);
    expect(traceparentFor(TRACE)).not.toBe(a);
  });

  it('continues the ids this service makes, and nothing else', () => {
    expect(parseTraceparent(traceparentFor(newTraceId()))).toBeDefined();
    for (const id of [null, undefined, '', 'caller-request-7', TRACE.toUpperCase(), '0'.repeat(32), `${TRACE}0`]) expect(traceparentFor(id)).toBeUndefined();
  });
});

describe('newTraceId', () => {
  it('makes W3C trace ids from fresh random bytes, none repeated across refills of its pool', () => {
    // 1,000 ids: several refills of the 256-id pool; a byte handed out twice would repeat an id.
    const ids = Array.from({ length: 1000 }, () => newTraceId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // No id shares a half with another (a pool slice reused at an offset would).
    expect(new Set(ids.map((id) => id.slice(0, 16))).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(16))).size).toBe(ids.length);
    expect(ids).not.toContain('0'.repeat(32));
  });
});
