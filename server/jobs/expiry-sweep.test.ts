import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { storageBackends, type StorageBackend } from '../../test/helpers/backends.ts';
import { dropSchema, postgresAvailable, postgresUrl, uniqueSchema } from '../../test/helpers/services.ts';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { assets, paymentFixtures } from '../../adapters/storage/conformance/payment-fixtures.ts';
import type { PaymentRecord } from '../domain/payments/records.ts';
import type { StoragePort } from '../ports/storage/index.ts';
import { systemClock } from '../ports/clock.ts';
import { silentLogger } from '../ports/logger.ts';
import { createExpirySweep } from './expiry-sweep.ts';
import { runInTrace } from '../domain/trace-context.ts';
import type { PassLoop } from './pass-loop.ts';

const backends = await storageBackends();
const traceOf = (paymentId: string) => createHash('md5').update(paymentId).digest('hex');

type Opened = Awaited<ReturnType<StorageBackend['open']>>;
let opened: Opened[] = [];
let sweeps: PassLoop[] = [];
afterEach(async () => {
  await Promise.all(sweeps.map((s) => s.stop()));
  await Promise.all(opened.map((s) => s.dispose()));
  sweeps = [];
  opened = [];
});

async function setUp(backend: StorageBackend) {
  const storage = await backend.open();
  opened.push(storage);
  const f = paymentFixtures(() => storage);
  const partner = await f.partner();
  const merchant = await f.merchant(partner.id, { name: 'Sweep shop' });
  /** A stored payment whose deadline is `inMs` from now (negative: already past). */
  const due = async (inMs: number): Promise<PaymentRecord> => {
    const p = { ...f.payment(merchant, { at: Date.now() }), expiresAt: new Date(Date.now() + inMs) };
    const r = await runInTrace({ traceId: traceOf(p.id) }, () => f.create(p));
    if (!r.ok) throw new Error(r.reason);
    return p;
  };
  const sweep = (opts: Parameters<typeof createExpirySweep>[1] = {}, s: StoragePort = storage) => {
    const loop = createExpirySweep({ storage: s, clock: systemClock, assets, logger: silentLogger }, opts);
    sweeps.push(loop);
    return loop;
  };
  return { storage, due, sweep };
}

describe.each(backends)('expiry sweep on $name', (backend) => {
  it('expires every due payment once, with its event, and leaves the rest open', async () => {
    const { storage, due, sweep } = await setUp(backend);
    const [a, b, later] = [await due(-60_000), await due(-1), await due(3_600_000)];
    const loop = sweep({ batch: 1 });
    expect(await loop.runOnce()).toBe(2);
    for (const p of [a, b]) {
      const now = (await storage.payments.get(p.id))!;
      expect(now).toMatchObject({ status: 'expired', stateVersion: 2 });
      const events = await storage.payments.events(p.id);
      expect(events.map((e) => [e.type, e.stateVersion])).toEqual([
        ['payment.created', 1],
        ['payment.expired', 2],
      ]);
      // In the trace of the request that made the payment, as its expiry job's run was.
      expect(events.map((e) => e.traceId)).toEqual([traceOf(p.id), traceOf(p.id)]);
      expect(events[1]!.data).toMatchObject({ paymentId: p.id, status: 'expired', merchant: { name: 'Sweep shop' } });
    }
    expect((await storage.payments.get(later.id))?.status).toBe('requires_action');
    expect(await loop.runOnce()).toBe(0);
    expect(await storage.payments.events(a.id)).toHaveLength(2);
  }, 60_000);

  it('wakes at the next deadline rather than an interval later', async () => {
    const { storage, due, sweep } = await setUp(backend);
    const p = await due(1500);
    sweep({ intervalMs: 60_000 }).start();
    let now = (await storage.payments.get(p.id))!;
    for (const until = Date.now() + 8000; now.status !== 'expired' && Date.now() < until; now = (await storage.payments.get(p.id))!) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(now.status).toBe('expired');
    const late = now.updatedAt.getTime() - p.expiresAt.getTime();
    expect(late).toBeGreaterThanOrEqual(0);
    expect(late).toBeLessThan(1000);
  }, 60_000);

  it('sweeps running at once expire each payment exactly once', async () => {
    const { storage, due, sweep } = await setUp(backend);
    const ids = (await Promise.all(Array.from({ length: 120 }, () => due(-1000)))).map((p) => p.id);
    const counts = await Promise.all([sweep({ batch: 7 }), sweep({ batch: 11 }), sweep({ batch: 13 })].map((s) => s.runOnce()));
    expect(counts.reduce((x, y) => x + y, 0)).toBe(120);
    for (const id of ids.slice(0, 20)) expect((await storage.payments.events(id)).map((e) => e.type)).toEqual(['payment.created', 'payment.expired']);
    const left = await Promise.all(ids.map((id) => storage.payments.get(id)));
    expect(left.every((p) => p?.status === 'expired')).toBe(true);
  }, 60_000);
});

describe.runIf(await postgresAvailable())('expiry sweep and a process killed holding a payment (PostgreSQL)', () => {
  it('skips the payment while the process holds it and expires it once the process is killed', async () => {
    const schema = uniqueSchema('sweep');
    const storage = await createPostgresStorage({ url: postgresUrl, schema });
    opened.push(Object.assign(storage, { dispose: async () => (await storage.close(), await dropSchema(schema)) }));
    const { due, sweep } = await setUp({ name: 'postgresql', open: async () => Object.assign(storage, { dispose: async () => {} }) });
    const [held, free] = [await due(-1000), await due(-1000)];
    // Another process (a sweep or a confirm) in the middle of its unit on `held`, then kill -9.
    const script = `import pg from 'pg';
      const c = new pg.Client({ connectionString: ${JSON.stringify(postgresUrl)}, options: '-c search_path=${schema}' });
      await c.connect(); await c.query('BEGIN');
      await c.query('SELECT id FROM payments WHERE id = $1 FOR UPDATE', [${JSON.stringify(held.id)}]);
      process.stdout.write('ready\\n'); setInterval(() => {}, 60000);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => (d.toString().includes('ready') ? resolve() : undefined));
      child.on('exit', (code) => reject(new Error(`child exited ${String(code)} before holding the payment`)));
    });
    const loop = sweep();
    const started = Date.now();
    expect(await loop.runOnce()).toBe(1);
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await storage.payments.get(free.id))?.status).toBe('expired');
    expect((await storage.payments.get(held.id))?.status).toBe('requires_action');
    const gone = new Promise((r) => child.on('exit', (_code, signal) => r(signal)));
    child.kill('SIGKILL');
    expect(await gone).toBe('SIGKILL');
    let n = 0;
    for (const until = Date.now() + 10_000; n === 0 && Date.now() < until;) n = await loop.runOnce();
    expect(n).toBe(1);
    expect((await storage.payments.events(held.id)).map((e) => e.type)).toEqual(['payment.created', 'payment.expired']);
  }, 60_000);
});
