// SIGTERM to a real API process: requests in flight finish, long-polls answer at once, new
// connections are refused, and it exits within SHUTDOWN_TIMEOUT_S.
import { request, Agent, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceProcess } from '../helpers/processes.ts';
import { postgresAvailable, redisAvailable } from '../helpers/services.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { startCluster, type Cluster } from './cluster.ts';

const up = (await postgresAvailable()) && (await redisAvailable());
const BOUND_S = 4;

/** Whether a new TCP connection to the port is refused. */
const refused = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code === 'ECONNREFUSED'));
  });

describe.runIf(up)('SIGTERM to an API process', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster('mp_shut_api');
  }, 180_000);
  afterAll(async () => {
    await cluster?.close();
  }, 60_000);

  const headers = () => ({ 'Api-Key': cluster.partnerKey, 'Merchant-Id': cluster.merchantId, 'Content-Type': 'application/json' });
  const paymentBody = () => JSON.stringify({ amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `s-${Math.random()}` });

  /** A create whose body the test sends in two halves: in flight at the server until `finish()`. */
  function slowCreate(api: ServiceProcess, agent: Agent): { req: ClientRequest; finish(): void; answer: Promise<{ status: number; connection: string | undefined; body: any }> } {
    const body = paymentBody();
    const url = new URL('/v1/payments', api.url);
    const req = request(url, { method: 'POST', agent, headers: { ...headers(), 'Content-Length': String(Buffer.byteLength(body)), 'Idempotency-Key': `slow-${Math.random()}` } });
    const answer = new Promise<{ status: number; connection: string | undefined; body: any }>((done, fail) => {
      req.once('response', (res: IncomingMessage) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => done({ status: res.statusCode!, connection: res.headers.connection, body: JSON.parse(text) }));
      });
      req.once('error', fail);
    });
    req.write(body.slice(0, 10));
    req.flushHeaders();
    return { req, finish: () => req.end(body.slice(10)), answer };
  }

  it('finishes the request in flight, answers long-polls at once, refuses new connections and exits 0 within the bound', async () => {
    const api = await cluster.api({ SHUTDOWN_TIMEOUT_S: String(BOUND_S) });
    const port = Number(new URL(api.url).port);
    const created = await fetch(`${api.url}/v1/payments`, { method: 'POST', headers: headers(), body: paymentBody() });
    expect(created.status).toBe(201);
    const paymentId = ((await created.json()) as { paymentId: string }).paymentId;
    // An idle keep-alive connection, which must not hold the close open.
    const agent = new Agent({ keepAlive: true, maxSockets: 10 });
    const idle = await new Promise<number>((done) => request(new URL('/healthz', api.url), { agent }, (res) => res.resume().on('end', () => done(res.statusCode!))).end());
    expect(idle).toBe(200);
    const polls = Array.from({ length: 3 }, () =>
      fetch(`${api.url}/v1/payments/${paymentId}/status?maxPollMs=30000`, { headers: headers() }).then(async (r) => ({
        status: r.status,
        body: await r.json(),
        at: Date.now(),
      })),
    );
    const slow = slowCreate(api, agent);
    // Every request has reached the process: it counts them in flight when told to stop.
    await new Promise((r) => setTimeout(r, 500));

    const signalled = Date.now();
    api.child.kill('SIGTERM');
    const answered = await Promise.all(polls);
    for (const p of answered) {
      expect(p).toMatchObject({ status: 200, body: { status: 'requires_action' } });
      expect(p.at - signalled).toBeLessThan(1500);
    }
    await waitFor('new connections to be refused', () => refused(port), 2000, 50);
    slow.finish();
    const done = await slow.answer;
    expect(done).toMatchObject({ status: 201, connection: 'close', body: { status: 'requires_action' } });
    const exit = await api.exited;
    const tookMs = Date.now() - signalled;
    console.log(`API shutdown with 4 requests in flight and an idle keep-alive connection: exit ${exit.code} after ${tookMs} ms (bound ${BOUND_S} s)`);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(tookMs).toBeLessThan(BOUND_S * 1000);
    const line = api.logLines().find((l) => l.msg === 'shut down');
    expect(line).toMatchObject({ requestsInFlight: 4, requestsCut: 0 });
    const rows = await cluster.query<{ n: string }>('SELECT count(*) AS n FROM payments WHERE id = $1', [done.body.paymentId]);
    expect(Number(rows[0]!.n)).toBe(1);
    agent.destroy();
  }, 60_000);

  it('cuts a request that outlasts the bound and still exits within it, saying so', async () => {
    const api = await cluster.api({ SHUTDOWN_TIMEOUT_S: String(BOUND_S) });
    const agent = new Agent({ keepAlive: true });
    const slow = slowCreate(api, agent);
    await new Promise((r) => setTimeout(r, 300));
    const signalled = Date.now();
    api.child.kill('SIGTERM');
    await expect(slow.answer).rejects.toThrow(/socket hang up|ECONNRESET/);
    const exit = await api.exited;
    const tookMs = Date.now() - signalled;
    expect(exit.code).toBe(1);
    expect(tookMs).toBeLessThan(BOUND_S * 1000 + 500);
    expect(api.logLines().find((l) => l.msg === 'shut down')).toMatchObject({ requestsInFlight: 1, requestsCut: 1 });
    agent.destroy();
  }, 60_000);
});
