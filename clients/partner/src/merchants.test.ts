import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'ethers';
import { ApiError, createPartnerClient } from './index.ts';
import { EVM_DEST, startService, USDC_BASE, USDT_ETH, type Service } from './test-support/service.ts';

const checksummed = (account: string): string => account.replace(/0x[0-9a-fA-F]{40}$/, (a) => getAddress(a));

describe('merchants and settlements against the real service', () => {
  let s: Service;
  beforeAll(async () => {
    s = await startService();
  });
  afterAll(() => s?.stop());

  it('creates a merchant with a generated Idempotency-Key, a new one per call', async () => {
    const { client, sent } = s.client();
    const a = await client.merchants.create({ merchantName: 'Acme Store', merchantEmail: 'billing@acme.store' });
    const b = await client.merchants.create({ merchantName: 'Acme Store', merchantEmail: 'billing@acme.store' });
    expect(a).toEqual({ id: expect.stringMatching(/^mrch_/), name: 'Acme Store', email: 'billing@acme.store', status: 'active', createdAt: expect.any(String) });
    expect(b.id).not.toBe(a.id);
    const keys = sent.map((r) => r.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('replays with an explicit key: same merchant; another body with that key is idempotency_conflict', async () => {
    const { client } = s.client();
    const body = { merchantName: 'Replay Co', merchantEmail: 'ops@replay.co' };
    const first = await client.merchants.create(body, { idempotencyKey: 'replay-1' });
    expect(await client.merchants.create(body, { idempotencyKey: 'replay-1' })).toEqual(first);
    const conflict = await client.merchants.create({ ...body, merchantName: 'Other' }, { idempotencyKey: 'replay-1' }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ApiError);
    expect(conflict).toMatchObject({ status: 409, code: 'idempotency_conflict' });
  });

  it('surfaces a validation error as ApiError with issues and the Request-Id', async () => {
    const { client } = s.client();
    const error = await client.merchants.create({ merchantName: '', merchantEmail: '.bad..email@x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    expect(e).toMatchObject({ status: 400, code: 'params_validation' });
    expect(e.issues?.map((i) => i.field).join(' ')).toMatch(/merchantName.*merchantEmail|merchantEmail.*merchantName/);
    expect(e.requestId).toEqual(expect.any(String));
  });

  it('answers 401 invalid_api_key for a wrong key', async () => {
    const client = createPartnerClient({ baseUrl: s.t.url, apiKey: 'sk_test_wrong' });
    await expect(client.merchants.list()).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('updates, reads and soft-deletes a merchant', async () => {
    const { client } = s.client();
    const m = await client.merchants.create({ merchantName: 'Old Name', merchantEmail: 'a@old.co' });
    expect(await client.merchants.update(m.id, { merchantName: 'New Name' })).toMatchObject({ id: m.id, name: 'New Name', iconUrl: null });
    expect(await client.merchants.get(m.id)).toMatchObject({ id: m.id, name: 'New Name', settlements: { crypto: [], fiat: [] } });
    expect(await client.merchants.delete(m.id)).toEqual({ id: m.id, deleted: true });
    expect(await client.merchants.delete(m.id)).toEqual({ id: m.id, deleted: true });
    await expect(client.merchants.get(m.id)).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('iterates every merchant across pages with listAll', async () => {
    const partner = await s.t.newPartner();
    const { client, sent } = s.client({ apiKey: partner.key });
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await client.merchants.create({ merchantName: `Shop ${i}`, merchantEmail: `s${i}@shop.co` })).id);
    sent.length = 0;
    const seen: string[] = [];
    for await (const m of client.merchants.listAll({ limit: 2 })) seen.push(m.id);
    expect(seen.sort()).toEqual([...created].sort());
    expect(sent.map((r) => r.url.searchParams.get('cursor') === null)).toEqual([true, false, false]);
    const page = await client.merchants.list({ limit: 2, search: 'Shop 3' });
    expect(page).toMatchObject({ totalCount: 1, nextCursor: null, data: [{ id: created[3] }] });
  });

  it('registers, lists, changes and removes crypto settlements', async () => {
    const { client, sent } = s.client();
    const m = await client.merchants.create({ merchantName: 'Settled', merchantEmail: 'fin@settled.co' });
    const [usdc, ...rest] = await client.settlements.create(m.id, [{ asset: USDC_BASE, destination: EVM_DEST }]);
    expect(rest).toEqual([]);
    // EVM destinations come back in their EIP-55 checksummed form.
    expect(usdc).toEqual({ id: expect.stringMatching(/^crypto_/), asset: USDC_BASE, destination: checksummed(EVM_DEST) });
    expect(sent.at(-1)!.headers.get('Idempotency-Key')).toEqual(expect.any(String));
    const conflict = client.settlements.create(m.id, [{ asset: USDC_BASE, destination: EVM_DEST }], { idempotencyKey: 'settle-again' });
    await expect(conflict).rejects.toMatchObject({ status: 409, code: 'settlement_asset_conflict' });
    const other = checksummed('eip155:8453:0x00000000000000000000000000000000000000a1');
    expect(await client.settlements.update(m.id, usdc!.id, other)).toMatchObject({ id: usdc!.id, destination: other });
    await expect(client.settlements.update(m.id, usdc!.id, 'eip155:1:0x00000000000000000000000000000000000000a1')).rejects.toMatchObject({ status: 400 });
    expect((await client.settlements.list(m.id)).crypto).toEqual([{ id: usdc!.id, asset: USDC_BASE, destination: other }]);
    expect(await client.settlements.delete(m.id, usdc!.id)).toEqual({ id: usdc!.id, deleted: true });
    expect(await client.settlements.create(m.id, [{ asset: USDT_ETH, destination: 'eip155:1:0x00000000000000000000000000000000000000a1' }])).toHaveLength(1);
    expect((await client.settlements.list(m.id)).crypto.map((c) => c.asset)).toEqual([USDT_ETH]);
  });
});
