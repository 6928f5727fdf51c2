import { getAddress } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageBackends } from './helpers/backends.ts';
import { startTestApp, type TestApp } from './helpers/test-app.ts';

const backends = await storageBackends();

const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const USDT_ETH = 'eip155:1/erc20:0xdAC17F958D2ee523a2206206994597C13D831ec7';
const USDC_SOL = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp/token:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const EVM_DEST = '0x1234567890abcdef1234567890abcdef12345678';
const SOL_DEST = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';

describe.each(backends)('crypto settlements on $name', (backend) => {
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
  async function merchant(key = t.a.key): Promise<string> {
    const r = await t.call('POST', '/v1/merchants', {
      key,
      headers: { 'Idempotency-Key': `m-${++n}-${Math.random()}` },
      body: { merchantName: `M${n}`, merchantEmail: `m${n}@shop.co` },
    });
    return r.body.merchant.id;
  }
  const register = (merchantId: string, settlements: unknown[], key = t.a.key, idem = `s-${++n}-${Math.random()}`) =>
    t.call('POST', `/v1/merchants/${merchantId}/settlements/crypto`, { key, headers: { 'Idempotency-Key': idem }, body: { settlements } });

  it('registers EVM and Solana destinations in one call and lists them', async () => {
    const id = await merchant();
    const r = await register(id, [
      { asset: USDC_BASE, destination: `eip155:8453:${EVM_DEST}` },
      { asset: USDC_SOL, destination: `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${SOL_DEST}` },
    ]);
    expect(r.status).toBe(201);
    expect(r.body.settlements).toEqual([
      { id: expect.stringMatching(/^crypto_/), asset: USDC_BASE, destination: `eip155:8453:${getAddress(EVM_DEST)}` },
      { id: expect.stringMatching(/^crypto_/), asset: USDC_SOL, destination: `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${SOL_DEST}` },
    ]);
    const list = await t.call('GET', `/v1/merchants/${id}/settlements`, { key: t.a.key });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ crypto: r.body.settlements, fiat: [] });
    const merchantView = await t.call('GET', `/v1/merchants/${id}`, { key: t.a.key });
    expect(merchantView.body.merchant.settlements.crypto).toEqual(r.body.settlements);
  });

  it('accepts a lower-case EVM token address and stores the registry id', async () => {
    const id = await merchant();
    const r = await register(id, [{ asset: USDC_BASE.toLowerCase(), destination: `eip155:8453:${EVM_DEST}` }]);
    expect(r.status).toBe(201);
    expect(r.body.settlements[0].asset).toBe(USDC_BASE);
  });

  it('answers 409 settlement_asset_conflict for an asset already registered, registering none of the batch', async () => {
    const id = await merchant();
    expect((await register(id, [{ asset: USDC_BASE, destination: `eip155:8453:${EVM_DEST}` }])).status).toBe(201);
    const again = await register(id, [
      { asset: USDT_ETH, destination: `eip155:1:${EVM_DEST}` },
      { asset: USDC_BASE, destination: `eip155:8453:${EVM_DEST}` },
    ]);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('settlement_asset_conflict');
    const list = await t.call('GET', `/v1/merchants/${id}/settlements`, { key: t.a.key });
    expect(list.body.crypto.map((s: { asset: string }) => s.asset)).toEqual([USDC_BASE]);
  });

  it('answers 409 settlement_asset_conflict for an asset repeated in one request', async () => {
    const id = await merchant();
    const r = await register(id, [
      { asset: USDC_BASE, destination: `eip155:8453:${EVM_DEST}` },
      { asset: USDC_BASE, destination: `eip155:8453:${EVM_DEST}` },
    ]);
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('settlement_asset_conflict');
  });

  it.each([
    ['an asset outside the registry', { asset: 'eip155:8453/erc20:0x0000000000000000000000000000000000000001', destination: `eip155:8453:${EVM_DEST}` }, 'settlements[0].asset'],
    ['a destination on another chain', { asset: USDC_BASE, destination: `eip155:1:${EVM_DEST}` }, 'settlements[0].destination'],
    ['a destination in another namespace', { asset: USDC_BASE, destination: `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:${SOL_DEST}` }, 'settlements[0].destination'],
    ['an EVM address with a bad checksum', { asset: USDC_BASE, destination: 'eip155:8453:0x1234567890ABCDEF1234567890abcdef12345678' }, 'settlements[0].destination'],
    ['a short EVM address', { asset: USDC_BASE, destination: 'eip155:8453:0x1234' }, 'settlements[0].destination'],
    ['a Solana address that is not 32 bytes', { asset: USDC_SOL, destination: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:abc' }, 'settlements[0].destination'],
    ['a malformed CAIP-19 asset', { asset: 'usdc', destination: `eip155:8453:${EVM_DEST}` }, 'settlements[0].asset'],
    ['a malformed CAIP-10 destination', { asset: USDC_BASE, destination: 'nope' }, 'settlements[0].destination'],
  ])('rejects %s with params_validation on the field', async (_label, entry, field) => {
    const id = await merchant();
    const r = await register(id, [entry]);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('params_validation');
    expect(r.body.issues.map((i: { field: string }) => i.field)).toContain(field);
    const list = await t.call('GET', `/v1/merchants/${id}/settlements`, { key: t.a.key });
    expect(list.body.crypto).toEqual([]);
  });

  it('takes 1 to 50 entries', async () => {
    const id = await merchant();
    const none = await register(id, []);
    expect(none.status).toBe(400);
    const many = await register(
      id,
      Array.from({ length: 51 }, () => ({ asset: USDC_BASE, destination: `eip155:8453:${EVM_DEST}` })),
    );
    expect(many.status).toBe(400);
    expect(many.body.issues[0].field).toBe('settlements');
  });

  it('requires an Idempotency-Key and replays the first answer', async () => {
    const id = await merchant();
    const noKey = await t.call('POST', `/v1/merchants/${id}/settlements/crypto`, {
      key: t.a.key,
      body: { settlements: [{ asset: USDC_BASE, destination: `eip155:8453:${EVM_DEST}` }] },
    });
    expect(noKey.status).toBe(400);
    expect(noKey.body.code).toBe('missing_idempotency_key');
    const entry = [{ asset: USDC_BASE, destination: `eip155:8453:${EVM_DEST}` }];
    const first = await register(id, entry, t.a.key, 'settle-once');
    const replay = await register(id, entry, t.a.key, 'settle-once');
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
  });

  it('changes a destination with PUT, on the same chain only', async () => {
    const id = await merchant();
    const created = (await register(id, [{ asset: USDC_BASE, destination: `eip155:8453:${EVM_DEST}` }])).body.settlements[0];
    const other = '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd';
    const r = await t.call('PUT', `/v1/merchants/${id}/settlements/crypto/${created.id}`, { key: t.a.key, body: { destination: `eip155:8453:${other}` } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: created.id, asset: USDC_BASE, destination: `eip155:8453:${getAddress(other)}` });
    const wrongChain = await t.call('PUT', `/v1/merchants/${id}/settlements/crypto/${created.id}`, { key: t.a.key, body: { destination: `eip155:10:${other}` } });
    expect(wrongChain.status).toBe(400);
    expect(wrongChain.body.issues[0].field).toBe('destination');
    const missing = await t.call('PUT', `/v1/merchants/${id}/settlements/crypto/crypto_01ZZZZZZZZZZZZZZZZZZZZZZZZ`, {
      key: t.a.key,
      body: { destination: `eip155:8453:${other}` },
    });
    expect(missing.status).toBe(404);
  });

  it('deletes a settlement; the asset can then be registered again', async () => {
    const id = await merchant();
    const created = (await register(id, [{ asset: USDC_BASE, destination: `eip155:8453:${EVM_DEST}` }])).body.settlements[0];
    const del = await t.call('DELETE', `/v1/merchants/${id}/settlements/crypto/${created.id}`, { key: t.a.key });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: created.id, deleted: true });
    expect((await t.call('DELETE', `/v1/merchants/${id}/settlements/crypto/${created.id}`, { key: t.a.key })).status).toBe(404);
    expect((await register(id, [{ asset: USDC_BASE, destination: `eip155:8453:${EVM_DEST}` }])).status).toBe(201);
  });

  it('answers 404 for settlements of a deleted merchant', async () => {
    const id = await merchant();
    await t.call('DELETE', `/v1/merchants/${id}`, { key: t.a.key });
    const r = await register(id, [{ asset: USDC_BASE, destination: `eip155:8453:${EVM_DEST}` }]);
    expect(r.status).toBe(404);
  });

  it("never lets partner B see or change partner A's settlements", async () => {
    const id = await merchant();
    const created = (await register(id, [{ asset: USDC_BASE, destination: `eip155:8453:${EVM_DEST}` }])).body.settlements[0];
    const path = `/v1/merchants/${id}/settlements/crypto/${created.id}`;
    for (const r of [
      await t.call('GET', `/v1/merchants/${id}/settlements`, { key: t.b.key }),
      await register(id, [{ asset: USDT_ETH, destination: `eip155:1:${EVM_DEST}` }], t.b.key),
      await t.call('PUT', path, { key: t.b.key, body: { destination: `eip155:8453:${EVM_DEST}` } }),
      await t.call('DELETE', path, { key: t.b.key }),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('not_found');
    }
    // B's own merchant cannot reach A's settlement by id either.
    const bMerchant = await merchant(t.b.key);
    expect((await t.call('DELETE', `/v1/merchants/${bMerchant}/settlements/crypto/${created.id}`, { key: t.b.key })).status).toBe(404);
    const list = await t.call('GET', `/v1/merchants/${id}/settlements`, { key: t.a.key });
    expect(list.body.crypto).toEqual([created]);
  });
});
