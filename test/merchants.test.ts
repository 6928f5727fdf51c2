import { getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from './helpers/backends.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

const backends = await storageBackends();

describe.each(backends)('merchants on $name', (backend) => {
  let t: TestApp;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    const storage = await backend.open();
    dispose = storage.dispose;
    t = await startTestApp(storage);
  });
  afterAll(async () => {
    await t?.close();
    await dispose?.();
  });

  let n = 0;
  const create = (body: unknown, key = t.a.key, idem: string | null = `k-${++n}-${Math.random()}`) =>
    t.call('POST', '/v1/merchants', { key, body, headers: idem === null ? {} : { 'Idempotency-Key': idem } });

  it('creates a merchant: 201 with id, name, email, status active, createdAt', async () => {
    const r = await create({ merchantName: 'Acme Store', merchantEmail: 'billing@acme.store' });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body.merchant).sort()).toEqual(['createdAt', 'email', 'id', 'name', 'status']);
    expect(r.body.merchant).toMatchObject({ name: 'Acme Store', email: 'billing@acme.store', status: 'active' });
    expect(r.body.merchant.id).toMatch(/^mrch_[0-9A-Z]{26}$/);
    expect(r.body.merchant.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  describe('idempotency', () => {
    it('replays the first answer for the same key and body, creating nothing new', async () => {
      const body = { merchantName: 'Replay Co', merchantEmail: 'a@replay.co' };
      const first = await create(body, t.a.key, 'same-key');
      const again = await create(body, t.a.key, 'same-key');
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const list = await t.call('GET', '/v1/merchants?search=Replay%20Co', { key: t.a.key });
      expect(list.body.data).toHaveLength(1);
    });

    it('answers 409 idempotency_conflict for the same key with another body', async () => {
      await create({ merchantName: 'One', merchantEmail: 'a@one.co' }, t.a.key, 'conflict-key');
      const r = await create({ merchantName: 'Two', merchantEmail: 'a@one.co' }, t.a.key, 'conflict-key');
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('idempotency_conflict');
    });

    it('keeps keys per partner: B may use the key A used', async () => {
      const body = { merchantName: 'Per Partner', merchantEmail: 'a@pp.co' };
      const a = await create(body, t.a.key, 'shared-key');
      const b = await create(body, t.b.key, 'shared-key');
      expect(b.status).toBe(201);
      expect(b.body.merchant.id).not.toBe(a.body.merchant.id);
    });

    it('50 concurrent creations with one key create exactly one merchant and all get the same answer', async () => {
      const body = { merchantName: 'Concurrent Ltd', merchantEmail: 'ops@concurrent.io' };
      const results = await Promise.all(Array.from({ length: 50 }, () => create(body, t.a.key, 'concurrent-key')));
      expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
      expect(new Set(results.map((r) => r.body.merchant.id)).size).toBe(1);
      const list = await t.call('GET', '/v1/merchants?search=Concurrent%20Ltd', { key: t.a.key });
      expect(list.body.totalCount).toBe(1);
    });

    it('stores nothing for a request that failed validation: the key can be reused', async () => {
      const bad = await create({ merchantName: '', merchantEmail: 'a@fix.co' }, t.a.key, 'fix-key');
      expect(bad.status).toBe(400);
      const good = await create({ merchantName: 'Fixed', merchantEmail: 'a@fix.co' }, t.a.key, 'fix-key');
      expect(good.status).toBe(201);
    });

    it('requires the key (400 missing_idempotency_key) and caps it at 255 characters', async () => {
      const missing = await create({ merchantName: 'X', merchantEmail: 'a@x.co' }, t.a.key, null);
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe('missing_idempotency_key');
      const long = await create({ merchantName: 'X', merchantEmail: 'a@x.co' }, t.a.key, 'k'.repeat(256));
      expect(long.status).toBe(400);
      expect(long.body.code).toBe('params_validation');
      expect(long.body.issues[0].field).toMatch(/idempotency-key/i);
      const max = await create({ merchantName: 'X', merchantEmail: 'a@x.co' }, t.a.key, 'k'.repeat(255));
      expect(max.status).toBe(201);
    });
  });

  describe('validation', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['empty name', { merchantName: '', merchantEmail: 'a@b.co' }, 'merchantName'],
      ['name of 257 characters', { merchantName: 'n'.repeat(257), merchantEmail: 'a@b.co' }, 'merchantName'],
      ['missing name', { merchantEmail: 'a@b.co' }, 'merchantName'],
      ['missing email', { merchantName: 'N' }, 'merchantEmail'],
      ['email starting with a dot', { merchantName: 'N', merchantEmail: '.a@b.co' }, 'merchantEmail'],
      ['email with two dots', { merchantName: 'N', merchantEmail: 'a..b@b.co' }, 'merchantEmail'],
      ['email with a one-letter top-level label', { merchantName: 'N', merchantEmail: 'a@b.c' }, 'merchantEmail'],
      ['email with a numeric top-level label', { merchantName: 'N', merchantEmail: 'a@b.c0m' }, 'merchantEmail'],
      ['email without @', { merchantName: 'N', merchantEmail: 'ab.co' }, 'merchantEmail'],
      ['http logo', { merchantName: 'N', merchantEmail: 'a@b.co', iconUrl: 'http://cdn.example/logo.png' }, 'iconUrl'],
      ['name of the wrong type', { merchantName: 42, merchantEmail: 'a@b.co' }, 'merchantName'],
    ];
    it.each(cases)('rejects %s with params_validation and an issue on the field', async (_label, body, field) => {
      const r = await create(body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('params_validation');
      expect(r.body.issues.map((i: { field: string }) => i.field)).toContain(field);
      expect(typeof r.body.message).toBe('string');
    });

    it('accepts a 256-character name, a plus-addressed email and an HTTPS logo', async () => {
      const r = await create({ merchantName: 'n'.repeat(256), merchantEmail: "o'brien+shop@sub.example.co.uk", iconUrl: 'https://cdn.example/logo.png' });
      expect(r.status).toBe(201);
    });

    it('answers malformed JSON with invalid_params and a body over 1 MB with 413', async () => {
      const bad = await t.call('POST', '/v1/merchants', { key: t.a.key, rawBody: '{"merchantName":', headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'json' } });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('invalid_params');
      const huge = await create({ merchantName: 'x', merchantEmail: 'a@b.co', pad: 'x'.repeat(1_100_000) });
      expect(huge.status).toBe(413);
      expect(huge.body.code).toBe('payload_too_large');
    });
  });

  describe('update, get, delete', () => {
    it('updates fields, sets and unsets the logo, and requires at least one field', async () => {
      const { body } = await create({ merchantName: 'Before', merchantEmail: 'a@before.co' });
      const id = body.merchant.id;
      const set = await t.call('PATCH', `/v1/merchants/${id}`, { key: t.a.key, body: { merchantName: 'After', iconUrl: 'https://cdn.example/a.png' } });
      expect(set.status).toBe(200);
      expect(set.body.merchant).toMatchObject({ id, name: 'After', email: 'a@before.co', iconUrl: 'https://cdn.example/a.png', status: 'active' });
      const unset = await t.call('PATCH', `/v1/merchants/${id}`, { key: t.a.key, body: { iconUrl: null } });
      expect(unset.body.merchant.iconUrl).toBeNull();
      const empty = await t.call('PATCH', `/v1/merchants/${id}`, { key: t.a.key, body: {} });
      expect(empty.status).toBe(400);
      expect(empty.body.code).toBe('params_validation');
      const badEmail = await t.call('PATCH', `/v1/merchants/${id}`, { key: t.a.key, body: { merchantEmail: 'nope' } });
      expect(badEmail.status).toBe(400);
    });

    it('gets a merchant with its settlements', async () => {
      const { body } = await create({ merchantName: 'With Settlements', merchantEmail: 'a@ws.co' });
      const id = body.merchant.id;
      await t.call('POST', `/v1/merchants/${id}/settlements/crypto`, {
        key: t.a.key,
        headers: { 'Idempotency-Key': `s-${id}` },
        body: { settlements: [{ asset: 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', destination: 'eip155:8453:0x1234567890abcdef1234567890abcdef12345678' }] },
      });
      const r = await t.call('GET', `/v1/merchants/${id}`, { key: t.a.key });
      expect(r.status).toBe(200);
      expect(r.body.merchant.settlements.fiat).toEqual([]);
      expect(r.body.merchant.settlements.crypto).toEqual([
        {
          id: expect.stringMatching(/^crypto_/),
          asset: 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
          destination: `eip155:8453:${getAddress('0x1234567890abcdef1234567890abcdef12345678')}`,
        },
      ]);
    });

    it('soft-deletes: repeatable {id, deleted: true}, then hidden, 404 on get, status inactive underneath', async () => {
      const { body } = await create({ merchantName: 'Doomed', merchantEmail: 'a@doomed.co' });
      const id = body.merchant.id;
      const first = await t.call('DELETE', `/v1/merchants/${id}`, { key: t.a.key });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ id, deleted: true });
      const second = await t.call('DELETE', `/v1/merchants/${id}`, { key: t.a.key });
      expect(second.body).toEqual({ id, deleted: true });
      expect((await t.call('GET', `/v1/merchants/${id}`, { key: t.a.key })).status).toBe(404);
      const list = await t.call('GET', '/v1/merchants?search=Doomed', { key: t.a.key });
      expect(list.body.data).toEqual([]);
      expect((await t.storage.merchants.get(t.a.id, id, { includeDeleted: true }))?.status).toBe('inactive');
      expect((await t.call('PATCH', `/v1/merchants/${id}`, { key: t.a.key, body: { merchantName: 'Back' } })).status).toBe(404);
    });

    it('answers 404 not_found for an unknown id', async () => {
      const r = await t.call('GET', '/v1/merchants/mrch_01ZZZZZZZZZZZZZZZZZZZZZZZZ', { key: t.a.key });
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('not_found');
    });
  });

  describe('list', () => {
    it('pages newest first with a keyset cursor: no duplicates, no gaps, a total count', async () => {
      const p = await t.newPartner();
      const ids: string[] = [];
      // One millisecond apart: ids of one millisecond sort at random among themselves.
      for (let i = 0; i < 23; i++) {
        t.clock.advance(1);
        ids.push((await create({ merchantName: `Shop ${i}`, merchantEmail: `s${i}@shop.co` }, p.key)).body.merchant.id);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const q: string = `/v1/merchants?limit=5${cursor ? `&cursor=${cursor}` : ''}`;
        const r = await t.call('GET', q, { key: p.key });
        expect(r.status).toBe(200);
        expect(r.body.totalCount).toBe(23);
        seen.push(...r.body.data.map((m: { id: string }) => m.id));
        cursor = r.body.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(5);
      expect(seen).toEqual([...ids].reverse());
    });

    it('filters by status and searches name and id', async () => {
      const p = await t.newPartner();
      const blue = (await create({ merchantName: 'Blue Widgets', merchantEmail: 'a@blue.co' }, p.key)).body.merchant;
      await create({ merchantName: 'Red Gadgets', merchantEmail: 'a@red.co' }, p.key);
      const byName = await t.call('GET', '/v1/merchants?search=widget', { key: p.key });
      expect(byName.body.data.map((m: { id: string }) => m.id)).toEqual([blue.id]);
      const byId = await t.call('GET', `/v1/merchants?search=${blue.id}`, { key: p.key });
      expect(byId.body.data.map((m: { id: string }) => m.id)).toEqual([blue.id]);
      const wildcard = await t.call('GET', '/v1/merchants?search=%25', { key: p.key });
      expect(wildcard.body.data).toEqual([]);
      const active = await t.call('GET', '/v1/merchants?status=active', { key: p.key });
      expect(active.body.totalCount).toBe(2);
      const suspended = await t.call('GET', '/v1/merchants?status=suspended', { key: p.key });
      expect(suspended.body).toEqual({ data: [], nextCursor: null, totalCount: 0 });
    });

    it('rejects bad list parameters', async () => {
      for (const q of ['limit=0', 'limit=101', 'status=gone', 'cursor=not-a-cursor', 'unknown=1']) {
        const r = await t.call('GET', `/v1/merchants?${q}`, { key: t.a.key });
        expect(r.status, q).toBe(400);
        expect(r.body.code, q).toBe('params_validation');
      }
    });
  });

  describe('tenancy', () => {
    it("never lets partner B read, change or delete partner A's merchant", async () => {
      const { body } = await create({ merchantName: 'Private', merchantEmail: 'a@private.co' });
      const id = body.merchant.id;
      const asB = (method: string, path: string, b?: unknown) => t.call(method, path, { key: t.b.key, ...(b ? { body: b } : {}) });
      for (const r of [
        await asB('GET', `/v1/merchants/${id}`),
        await asB('PATCH', `/v1/merchants/${id}`, { merchantName: 'Stolen' }),
        await asB('DELETE', `/v1/merchants/${id}`),
        await asB('GET', `/v1/merchants/${id}/settlements`),
      ]) {
        expect(r.status).toBe(404);
        expect(r.body.code).toBe('not_found');
      }
      const list = await asB('GET', `/v1/merchants?search=${id}`);
      expect(list.body.data).toEqual([]);
      const stillThere = await t.call('GET', `/v1/merchants/${id}`, { key: t.a.key });
      expect(stillThere.body.merchant.name).toBe('Private');
    });
  });
});
