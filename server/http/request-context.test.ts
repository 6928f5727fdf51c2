import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindTrace, currentTrace, runInTrace } from '../domain/trace-context.ts';
import { contextOf, type RequestContext } from './context.ts';
import { requestContext } from './request-context.ts';

// V8 allocates an own accessor's getter/setter pair straight in the old generation; on an object made
// per request, the pair's closures (over the request and its response) then survive every young
// collection until a full one (docs/benchmarks.md, "npm run bench -- memory"). So none of these
// objects may carry an own accessor.
const ownAccessors = (o: object) =>
  Object.entries(Object.getOwnPropertyDescriptors(o))
    .filter(([, d]) => d.get ?? d.set)
    .map(([k]) => k);

describe('request context', () => {
  const seen: RequestContext[] = [];
  const lines: string[] = [];
  let server: import('node:http').Server;
  let url: string;

  beforeAll(async () => {
    const app = express();
    app.use(requestContext(pino({ level: 'info' }, { write: (line: string) => void lines.push(line) })));
    app.get('/t', (_req, res) => {
      seen.push(contextOf(res));
      res.json({ ok: true });
    });
    // What auth does on finding a partner key.
    app.get('/partner', (_req, res) => {
      contextOf(res).adoptCallerTrace(res);
      seen.push(contextOf(res));
      res.json({ ok: true });
    });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it("keeps its lazy logger off the per-request object and logs each request's line with its id; the caller's id only as a link until a partner key adopts it", async () => {
    const ids = ['req-a', 'req-b', 'req-c'];
    const ours: string[] = [];
    for (const id of ids) {
      const answered = (await fetch(`${url}/t`, { headers: { 'Request-Id': id } })).headers.get('request-id')!;
      expect(answered).toMatch(/^[0-9a-f]{32}$/);
      ours.push(answered);
    }
    expect(seen.map((c) => c.requestId)).toEqual(ours);
    for (const ctx of seen) expect(ownAccessors(ctx)).toEqual([]);
    expect(seen[0]!.log.bindings()).toMatchObject({ requestId: ours[0] });
    expect((await fetch(`${url}/partner`, { headers: { 'Request-Id': 'req-p' } })).headers.get('request-id')).toBe('req-p');
    expect(seen.at(-1)).toMatchObject({ requestId: 'req-p', trace: { traceId: 'req-p' } });
    expect(ownAccessors(seen.at(-1)!)).toEqual([]);
    // The access line is written at 'finish', in the request's trace.
    await new Promise((r) => setTimeout(r, 20));
    const access = lines.map((l) => JSON.parse(l) as { msg: string; requestId: string; callerTraceId?: string }).filter((l) => l.msg === 'request');
    expect(access.map((l) => [l.requestId, l.callerTraceId])).toEqual([...ours.map((o, i) => [o, ids[i]]), ['req-p', undefined]]);
  });
});

describe('bindTrace', () => {
  it('runs the callback in the trace it was bound in, with no accessor on the bound function', () => {
    const a = runInTrace({ traceId: 't-1' }, () => bindTrace(() => currentTrace()?.traceId));
    const b = runInTrace({ traceId: 't-2' }, () => bindTrace(() => currentTrace()?.traceId));
    const outside = bindTrace(() => currentTrace()?.traceId);
    expect(runInTrace({ traceId: 'other' }, () => [a(), b(), outside()])).toEqual(['t-1', 't-2', undefined]);
    expect([...ownAccessors(a), ...ownAccessors(outside)]).toEqual([]);
  });
});
