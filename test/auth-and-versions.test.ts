import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';
import { createKey } from '../server/auth/provisioning.ts';

describe('authentication, scopes and API versions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(await openEmbeddedStorage());
  });
  afterAll(async () => {
    await t?.close();
    await t?.storage.close();
  });

  it('401 missing_api_key without a key, invalid_api_key for a wrong or malformed one', async () => {
    const none = await t.call('GET', '/v1/merchants');
    expect(none).toMatchObject({ status: 401, body: { code: 'missing_api_key' } });
    for (const key of ['sk_test_wrongwrongwrongwrongwrong', 'garbage', `${t.a.key}x`]) {
      const r = await t.call('GET', '/v1/merchants', { key });
      expect(r.status, key).toBe(401);
      expect(r.body.code).toBe('invalid_api_key');
    }
  });

  it('403 forbidden for a wallet key on partner operations', async () => {
    const r = await t.call('POST', '/v1/merchants', { key: t.a.walletKey, headers: { 'Idempotency-Key': 'w' }, body: { merchantName: 'W', merchantEmail: 'a@w.co' } });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('forbidden');
  });

  it('400 conflicting_auth_headers for Api-Key with App-Id; 403 for App-Id on partner operations', async () => {
    const both = await t.call('GET', '/v1/merchants', { key: t.a.key, headers: { 'App-Id': 'app_x', 'Client-Id': 'c' } });
    expect(both).toMatchObject({ status: 400, body: { code: 'conflicting_auth_headers' } });
    const app = await t.call('GET', '/v1/merchants', { headers: { 'App-Id': 'app_x', 'Client-Id': 'c' } });
    expect(app).toMatchObject({ status: 403, body: { code: 'forbidden' } });
  });

  it('stops accepting a revoked key', async () => {
    const extra = await createKey(t.storage, { partnerId: t.a.id, scope: 'partner', live: false });
    expect((await t.call('GET', '/v1/merchants', { key: extra.apiKey })).status).toBe(200);
    await t.storage.apiKeys.revoke(extra.record.id, new Date());
    t.clock.advance(10_000); // past the per-process key cache
    expect((await t.call('GET', '/v1/merchants', { key: extra.apiKey })).body.code).toBe('invalid_api_key');
  });

  it('404 not_found for unknown routes and 405 for a known path with another method, in the error shape', async () => {
    const unknown = await t.call('GET', '/v1/nothing-here', { key: t.a.key });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found', message: expect.any(String) } });
    const method = await t.call('PUT', '/v1/merchants', { key: t.a.key });
    expect(method).toMatchObject({ status: 405, body: { code: 'method_not_allowed' } });
  });

  it('answers health and readiness without a key, and echoes a request id', async () => {
    expect((await t.call('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await t.call('GET', '/readyz')).body).toEqual({ status: 'ready', checks: { storage: { ok: true } }, not_ready: [] });
    const r = await t.call('GET', '/v1/merchants', { key: t.a.key, headers: { 'Request-Id': 'trace-123' } });
    expect(r.headers.get('request-id')).toBe('trace-123');
  });

  describe('Svc-Version', () => {
    it("uses the partner's pinned version without the header, and echoes it", async () => {
      const r = await t.call('GET', '/v1/merchants', { key: t.a.key });
      expect(r.headers.get('svc-version')).toBe('2026-02-18');
      const preview = await t.newPartner('2026-02-19.preview');
      expect((await t.call('GET', '/v1/merchants', { key: preview.key })).headers.get('svc-version')).toBe('2026-02-19.preview');
    });

    it('moves forward to the preview on request, also through the WCP-Version alias', async () => {
      for (const header of ['Svc-Version', 'WCP-Version']) {
        const r = await t.call('GET', '/v1/merchants', { key: t.a.key, headers: { [header]: '2026-02-19.preview' } });
        expect(r.status, header).toBe(200);
        expect(r.headers.get('svc-version')).toBe('2026-02-19.preview');
      }
    });

    it('refuses a downgrade, an unknown version and a malformed one with their codes', async () => {
      const preview = await t.newPartner('2026-02-19.preview');
      const down = await t.call('GET', '/v1/merchants', { key: preview.key, headers: { 'Svc-Version': '2026-02-18' } });
      expect(down).toMatchObject({ status: 400, body: { code: 'api_version_downgrade' } });
      const unknown = await t.call('GET', '/v1/merchants', { key: t.a.key, headers: { 'Svc-Version': '2027-01-01' } });
      expect(unknown).toMatchObject({ status: 400, body: { code: 'unknown_api_version' } });
      for (const bad of ['latest', '2026-2-18', '2026-02-18.beta']) {
        const r = await t.call('GET', '/v1/merchants', { key: t.a.key, headers: { 'Svc-Version': bad } });
        expect(r.body.code, bad).toBe('invalid_api_version');
      }
    });
  });

  it('never leaks a stack trace: an unexpected failure is 500 internal_error with a request id', async () => {
    const broken = await startTestApp(t.storage, {
      assets: {
        get: () => {
          throw new Error('secret internals at /srv/app.ts:42');
        },
        all: () => [],
      },
    });
    try {
      const m = await broken.call('POST', '/v1/merchants', { key: broken.a.key, headers: { 'Idempotency-Key': 'boom' }, body: { merchantName: 'B', merchantEmail: 'a@b.co' } });
      const r = await broken.call('POST', `/v1/merchants/${m.body.merchant.id}/settlements/crypto`, {
        key: broken.a.key,
        headers: { 'Idempotency-Key': 'boom2' },
        body: { settlements: [{ asset: 'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7', destination: 'eip155:1:0x1234567890abcdef1234567890abcdef12345678' }] },
      });
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ message: 'Internal error', code: 'internal_error', details: { requestId: expect.any(String) } });
      expect(JSON.stringify(r.body)).not.toContain('secret');
    } finally {
      await broken.close();
    }
  });
});
