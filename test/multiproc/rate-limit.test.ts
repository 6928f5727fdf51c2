// One partner key's rate limit across two API processes on one Redis, as the limiter's leases
// (adapters/rate-limit/redis/lease.ts) keep it: each busy process reserves passes ahead, yet both
// together never let the key through more than its limit, and what a process reserved but did not
// use goes back to the shared bucket. Real child processes (test/helpers/processes.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceProcess } from '../helpers/processes.ts';
import { postgresAvailable, redisAvailable } from '../helpers/services.ts';
import { startCluster, type Cluster } from './cluster.ts';

const up = (await postgresAvailable()) && (await redisAvailable());
// A burst of 640 lets each process lease up to 640 / 16 = 40 passes; one pass a second refills
// next to nothing while the test runs.
const BURST = 640;
const LEASE = BURST / 16;

describe.runIf(up)('rate limit across two API processes', () => {
  let cluster: Cluster;
  let apis: ServiceProcess[];
  beforeAll(async () => {
    cluster = await startCluster('mp_rate');
    const limit = { RATE_LIMIT_PER_S: '1', RATE_LIMIT_BURST: String(BURST) };
    apis = await Promise.all([cluster.api(limit), cluster.api(limit)]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all((apis ?? []).map((a) => a.stop('SIGKILL')));
    await cluster?.close();
  }, 60_000);

  /** `waves` rounds of 16 requests at once to each of `to`: how many passed, and the refusals' Retry-After. */
  const drive = async (waves: number, to: ServiceProcess[]) => {
    let passed = 0;
    const retryAfter = new Set<string | null>();
    for (let wave = 0; wave < waves; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 16 * to.length }, (_, i) =>
          fetch(`${to[i % to.length]!.url}/v1/merchants/${cluster.merchantId}`, { headers: { 'Api-Key': cluster.partnerKey } }).then(async (res) => {
            await res.arrayBuffer();
            return res;
          }),
        ),
      );
      for (const res of answers) {
        if (res.status === 200) passed++;
        else {
          expect(res.status).toBe(429);
          retryAfter.add(res.headers.get('Retry-After'));
        }
      }
    }
    return { passed, retryAfter };
  };

  it('lets a busy key through no more than its burst across both processes, and loses none of it', async () => {
    const [a, b] = apis as [ServiceProcess, ServiceProcess];
    const started = Date.now();
    const refill = () => Math.ceil((Date.now() - started) / 1000) + 1;
    // The key is busy on the first process (which leases passes ahead), then moves to the second.
    const onA = await drive(5, [a]);
    expect(onA.passed).toBe(80);
    const onB = await drive(40, [b]);
    expect(onA.passed + onB.passed).toBeLessThanOrEqual(BURST + refill());
    // The second is refused early by at most what the first still holds: one lease.
    expect(onA.passed + onB.passed).toBeGreaterThanOrEqual(BURST - LEASE);
    expect(onB.retryAfter.size).toBeGreaterThan(0);
    expect([...onB.retryAfter].every((v) => v !== null && Number(v) >= 1)).toBe(true);
    // Leases unused for 100 ms go back: then the rest of the burst is there to take, from either
    // process at once, and no more.
    await new Promise((r) => setTimeout(r, 500));
    const both = await drive(10, [a, b]);
    expect(onA.passed + onB.passed + both.passed).toBeGreaterThanOrEqual(BURST);
    expect(onA.passed + onB.passed + both.passed).toBeLessThanOrEqual(BURST + refill());
  }, 120_000);
});
