import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgDb, type SqlDb } from '../adapters/storage/postgres/sql-db.ts';
import { PAYMENT_CHANGES_CHANNEL } from '../adapters/storage/postgres/change-channel.ts';
import { postgresAvailable, postgresUrl } from './helpers/services.ts';
import { storageBackends } from './helpers/backends.ts';
import { waitFor } from './helpers/wait-for.ts';
import { newId } from '../server/domain/ids.ts';
import { newPayment } from '../server/domain/payments/create-payment.ts';
import type { PaymentChangeSignal } from '../server/ports/payment-changes.ts';
import { createPostgresPaymentChanges } from '../adapters/payment-changes/postgres/index.ts';

/** A change announced as the storage does: a NOTIFY committed with a transaction. */
const publishVia = (db: SqlDb) => async (id: string) => {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_notify($1, $2)', [PAYMENT_CHANGES_CHANNEL, id]);
  });
};

describe('the PostgreSQL storage announces its payment changes', async () => {
  for (const backend of await storageBackends()) {
    it(`${backend.name}: a transition and a refund notify at commit; a transition that does not apply does not`, async () => {
      const s = await backend.open();
      const changes = await createPostgresPaymentChanges({ channel: PAYMENT_CHANGES_CHANNEL, db: s.db });
      try {
        const t0 = new Date();
        const partner = { id: newId('partner'), name: 'P', defaultVersion: '2026-02-18', createdAt: t0 };
        await s.partners.create(partner);
        const merchant = { id: newId('merchant'), partnerId: partner.id, name: 'M', email: 'm@x.co', iconUrl: null, status: 'active' as const, createdAt: t0, deletedAt: null };
        await s.merchants.create(merchant);
        await s.settlements.createMany(partner.id, merchant.id, [
          { id: newId('cryptoSettlement'), partnerId: partner.id, merchantId: merchant.id, asset: 'eip155:1/erc20:0xa', destination: 'eip155:1:0x1', createdAt: t0 },
        ]);
        const p = newPayment({ partnerId: partner.id, merchantId: merchant.id, amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: 'r', expiresAt: null }, t0.getTime(), {
          defaultTtlS: 300,
          maxTtlS: 3600,
        });
        await s.payments.create(p, { event: { id: newId('event'), type: 'payment.created', snapshot: () => ({}) }, jobs: [] });

        const heard: PaymentChangeSignal[] = [];
        changes.subscribe(p.id, (signal) => heard.push(signal));
        const move = (from: string[], to: 'processing' | 'succeeded') =>
          s.payments.transition(p.id, { from: from as never, to, patch: {}, at: new Date(), event: { id: newId('event'), type: `payment.${to}`, snapshot: () => ({}) } });

        // Not from requires_action: nothing changes, so nothing is announced.
        expect((await move(['succeeded'], 'processing')).ok).toBe(false);
        expect((await move(['requires_action'], 'processing')).ok).toBe(true);
        await waitFor('the transition’s notification', () => heard.length === 1);
        expect((await move(['processing'], 'succeeded')).ok).toBe(true);
        await waitFor('the second transition’s notification', () => heard.length === 2);
        expect((await s.payments.markRefunded(partner.id, merchant.id, p.id, new Date(), { id: newId('event'), type: 'payment.refunded', snapshot: () => ({}) })).ok).toBe(true);
        await waitFor('the refund’s notification', () => heard.length === 3);
        expect((await s.payments.markRefunded(partner.id, merchant.id, p.id, new Date(), { id: newId('event'), type: 'payment.refunded', snapshot: () => ({}) })).ok).toBe(false);
        // A marker on the same channel: once it arrives, nothing else was announced before it.
        const marker: PaymentChangeSignal[] = [];
        changes.subscribe('pay_marker', (signal) => marker.push(signal));
        await publishVia(s.db)('pay_marker');
        await waitFor('the marker', () => marker.length === 1);
        expect(heard).toEqual(['changed', 'changed', 'changed']);
      } finally {
        await changes.close();
        await s.dispose();
      }
    });
  }
});

const server = await postgresAvailable();

describe.runIf(server)('PostgreSQL listener reconnects', () => {
  const applicationName = `mps-changes-test-${process.pid}-${Date.now().toString(36)}`;
  let db: SqlDb;
  let admin: pg.Client;
  beforeAll(async () => {
    db = createPgDb({ url: postgresUrl });
    admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await db?.close();
  });
  const terminateListener = async () => {
    const r = await admin.query('SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1', [applicationName]);
    expect(r.rows).toEqual([{ ok: true }]);
  };
  const listenerBackends = async () => (await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [applicationName])).rowCount;

  it('after pg_terminate_backend, resyncs every subscriber once listening again, then delivers changes again', async () => {
    const errors: unknown[] = [];
    const changes = await createPostgresPaymentChanges({
      channel: PAYMENT_CHANGES_CHANNEL,
      db,
      applicationName,
      reconnect: { minMs: 50, maxMs: 200 },
      onError: (e) => errors.push(e),
    });
    try {
      const heard: Array<[string, PaymentChangeSignal]> = [];
      for (const id of ['pay_a', 'pay_b']) changes.subscribe(id, (s) => heard.push([id, s]));
      expect(await listenerBackends()).toBe(1);
      await terminateListener();
      // A change while nobody listens is lost; the resync after the reconnect covers it.
      await publishVia(db)('pay_a');
      await waitFor('a resync of every subscriber', () => heard.filter(([, s]) => s === 'resync').length === 2);
      expect(
        heard
          .filter(([, s]) => s === 'resync')
          .map(([id]) => id)
          .sort(),
      ).toEqual(['pay_a', 'pay_b']);
      expect(errors.length).toBeGreaterThan(0);
      expect(await listenerBackends()).toBe(1);
      await publishVia(db)('pay_b');
      await waitFor('a change after the reconnect', () => heard.some(([id, s]) => id === 'pay_b' && s === 'changed'));
    } finally {
      await changes.close();
    }
    // Closed: its connection is gone and it does not come back.
    await new Promise((r) => setTimeout(r, 300));
    expect(await listenerBackends()).toBe(0);
  });

  it('fails at creation when it cannot listen, rather than leave waiters to their bounds', async () => {
    const unreachable = { notifications: { engine: 'server' as const, url: 'postgresql://postgres@127.0.0.1:1/test' } };
    await expect(createPostgresPaymentChanges({ channel: PAYMENT_CHANGES_CHANNEL, db: unreachable })).rejects.toThrow();
    await expect(createPostgresPaymentChanges({ channel: PAYMENT_CHANGES_CHANNEL, db, reconnect: { minMs: 0 } })).rejects.toThrow(/reconnect/);
  });
});
