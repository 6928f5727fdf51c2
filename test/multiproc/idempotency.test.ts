// One Idempotency-Key sent 200 times at once, spread over two API processes on one PostgreSQL:
// one payment, one answer, byte for byte. Real child processes (test/helpers/processes.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceProcess } from '../helpers/processes.ts';
import { postgresAvailable, redisAvailable } from '../helpers/services.ts';
import { startCluster, type Cluster } from './cluster.ts';

const up = (await postgresAvailable()) && (await redisAvailable());

describe.runIf(up)('Idempotency-Key across two API processes', () => {
  let cluster: Cluster;
  let apis: ServiceProcess[];
  beforeAll(async () => {
    cluster = await startCluster('mp_idem');
    apis = await Promise.all([cluster.api(), cluster.api()]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all((apis ?? []).map((a) => a.stop('SIGKILL')));
    await cluster?.close();
  }, 60_000);

  const create = async (api: ServiceProcess, key: string, body: unknown) => {
    const res = await fetch(`${api.url}/v1/payments`, {
      method: 'POST',
      headers: { 'Api-Key': cluster.partnerKey, 'Merchant-Id': cluster.merchantId, 'Idempotency-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, replayed: res.headers.get('Idempotent-Replayed') === 'true', text: await res.text() };
  };

  it('200 concurrent creates with one key make one payment and answer it to every 2xx', async () => {
    const key = `idem-${Math.random()}`;
    const body = { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `ref-${Math.random()}` };
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => create(apis[i % 2]!, key, body)));
    const ok = answers.filter((a) => a.status >= 200 && a.status < 300);
    const others = answers.filter((a) => a.status < 200 || a.status >= 300);
    console.log(`200 concurrent creates with one key: ${ok.length} 2xx, ${others.length} other (${[...new Set(others.map((o) => o.status))].join(', ') || 'none'})`);
    expect(ok.length).toBeGreaterThan(0);
    // The same bytes, key order included: the first answer and every replay, from either process.
    expect(ok.filter((a) => !a.replayed)).toHaveLength(1);
    const differing = ok.filter((a) => a.text !== ok[0]!.text);
    expect(differing.map((a) => a.text)).toEqual([]);
    const paymentId = (JSON.parse(ok[0]!.text) as { paymentId: string }).paymentId;
    expect(paymentId).toMatch(/\S/);
    expect(new Set(ok.map((a) => a.status))).toEqual(new Set([201]));
    // A request that waited past the bound for the first one's answer gets the documented conflict.
    for (const o of others) expect({ status: o.status, code: (JSON.parse(o.text) as { code: string }).code }).toEqual({ status: 409, code: 'idempotency_in_progress' });
    const rows = await cluster.query<{ n: string }>('SELECT count(*) AS n FROM payments WHERE reference_id = $1', [body.referenceId]);
    expect(Number(rows[0]!.n)).toBe(1);

    // The same key with another body is another request: the documented mismatch error, on either process.
    for (const api of apis) {
      const other = await create(api, key, { ...body, amount: { unit: 'iso4217/USD', value: '2000' } });
      expect(other.status).toBe(409);
      expect(JSON.parse(other.text)).toMatchObject({ code: 'idempotency_conflict' });
    }
  }, 120_000);
});
