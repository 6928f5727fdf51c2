import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { createKey, createPartner } from '../server/auth/provisioning.ts';
import { firstStart } from '../server/first-start.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

/**
 * Production hygiene: sandbox partner keys (`sk_test_…`) do not work in production mode (they
 * used to: any key in the database did), and an empty production database gets no key printed
 * to the log at first start (it used to get a partner key and a wallet key).
 */
describe('production mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(await openEmbeddedStorage(), { mode: 'production' });
  });
  afterAll(async () => {
    await t?.close();
    await t?.storage.close();
  });

  it('refuses a sandbox key with 401 invalid_api_key, even one that exists; live and wallet keys work', async () => {
    // t.a was created with a sandbox key (sk_test_…), as a database moved from the sandbox would hold.
    expect(t.a.key).toMatch(/^sk_test_/);
    const r = await t.call('GET', '/v1/merchants', { key: t.a.key });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ code: 'invalid_api_key', message: expect.stringMatching(/production/) });
    const live = await createKey(t.storage, { partnerId: t.a.id, scope: 'partner', live: true });
    expect(live.apiKey).toMatch(/^sk_live_/);
    expect((await t.call('GET', '/v1/merchants', { key: live.apiKey })).status).toBe(200);
  });
});

describe('first start on an empty database', () => {
  it('in production creates no partner and no key, and says how to create one with the key tool', async () => {
    const storage = await openEmbeddedStorage();
    try {
      const printed: string[] = [];
      await firstStart(storage, { mode: 'production', publicBaseUrl: 'https://pay.example.com' }, (s) => printed.push(s));
      expect(await storage.partners.count()).toBe(0);
      expect(printed.join('\n')).toMatch(/npm run keys -- create-partner/);
      expect(printed.join('\n')).not.toMatch(/sk_(live|test)_|wk_/);
    } finally {
      await storage.close();
    }
  });

  it('in the sandbox creates a partner and prints its keys once; a second start prints nothing', async () => {
    const storage = await openEmbeddedStorage();
    try {
      const printed: string[] = [];
      await firstStart(storage, { mode: 'sandbox', publicBaseUrl: 'http://localhost:3000' }, (s) => printed.push(s));
      expect(await storage.partners.count()).toBe(1);
      expect(printed.join('\n')).toMatch(/partner key: {2}sk_test_\S+/);
      expect(printed.join('\n')).toMatch(/wallet key: {3}wk_\S+/);
      await firstStart(storage, { mode: 'sandbox', publicBaseUrl: 'http://localhost:3000' }, (s) => printed.push(s));
      expect(printed).toHaveLength(1);
      // A database that already has partners is left alone in production too.
      await createPartner(storage, { name: 'x', version: '2026-02-18', live: true });
      await firstStart(storage, { mode: 'production', publicBaseUrl: 'https://pay.example.com' }, (s) => printed.push(s));
      expect(printed).toHaveLength(1);
    } finally {
      await storage.close();
    }
  });
});
