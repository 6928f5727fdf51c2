import { describe, expect, it } from 'vitest';
import { PASSWORD, useDashboardApp } from './helpers/dashboard-app.ts';
import { dashboardClient } from '../server/dashboard/test-support/dashboard-client.ts';

/** The dashboard's merchants, settlements, payments, refunds, cancels and CSV export over HTTP. */
const env = useDashboardApp({
  // The logo check answers its messages for one URL, as the real one does for a bad image.
  checkLogo: async (url) => (url.includes('bad-logo') ? ['the image is not square (300×200)'] : []),
});
const { signedIn } = env;

const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const DEST = 'eip155:8453:0x1111111111111111111111111111111111111111';
const idOf = (location: string | null) => /mrch_[0-9A-Z]{26}/.exec(location ?? '')![0];

async function newMerchant(owner: Awaited<ReturnType<typeof signedIn>>, name: string, email = `shop-${Math.random().toString(36).slice(2)}@example.test`) {
  await owner.get('/dashboard/merchants');
  const r = await owner.post('/dashboard/merchants', { name, email, iconUrl: '', collect: 'off' });
  expect(r.status).toBe(303);
  return idOf(r.headers.get('location'));
}

describe('dashboard merchants and settlements', () => {
  it('an owner creates, searches, edits (the logo check’s messages shown) and deletes a merchant', async () => {
    const p = await env.t.newPartner();
    const owner = await signedIn('owner', p.id);
    const id = await newMerchant(owner, 'Corner <Café>');
    const page = await owner.get(`/dashboard/merchants/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Corner &lt;Café&gt;');
    expect(page.text).not.toContain('<Café>');

    await newMerchant(owner, 'Other shop');
    const found = await owner.get('/dashboard/merchants?search=corner');
    expect(found.text).toContain(`data-merchant-id="${id}"`);
    expect(found.text).not.toContain('Other shop');

    await owner.get(`/dashboard/merchants/${id}`);
    const bad = await owner.post(`/dashboard/merchants/${id}`, { name: 'Corner', email: 'c@example.test', iconUrl: 'https://cdn.example.test/bad-logo.png', collect: 'off' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('The logo at iconUrl is not acceptable');
    expect(bad.text).toContain('the image is not square (300×200)');
    const badEmail = await owner.post(`/dashboard/merchants/${id}`, { name: 'Corner', email: 'not an email', collect: 'off' });
    expect(badEmail.status).toBe(400);
    expect(badEmail.text).toContain('Email: must match pattern');

    const saved = await owner.post(`/dashboard/merchants/${id}`, {
      name: 'Corner',
      email: 'c@example.test',
      iconUrl: 'https://cdn.example.test/logo.png',
      collect: 'min',
      collectCurrency: 'usd',
      collectMinor: '5000',
    });
    expect(saved.status).toBe(303);
    const m = (await env.t.storage.merchants.get(p.id, id))!;
    expect(m).toMatchObject({
      name: 'Corner',
      email: 'c@example.test',
      iconUrl: 'https://cdn.example.test/logo.png',
      dataCollection: { minAmount: { unit: 'iso4217/USD', value: '5000' } },
    });
    const unknownCurrency = await owner.post(`/dashboard/merchants/${id}`, { name: 'Corner', email: 'c@example.test', collect: 'min', collectCurrency: 'XXQ', collectMinor: '1' });
    expect(unknownCurrency.text).toContain('is not a supported currency');

    await owner.get(`/dashboard/merchants/${id}`);
    expect((await owner.post(`/dashboard/merchants/${id}/delete`)).status).toBe(303);
    expect((await owner.get(`/dashboard/merchants/${id}`)).status).toBe(404);
  });

  it('adds a settlement, refuses a wrong chain with the domain’s message, changes and removes it', async () => {
    const p = await env.t.newPartner();
    const owner = await signedIn('owner', p.id);
    const id = await newMerchant(owner, 'Settles');
    await owner.get(`/dashboard/merchants/${id}`);
    const wrong = await owner.post(`/dashboard/merchants/${id}/settlements`, { asset: USDC_BASE, destination: 'eip155:1:0x1111111111111111111111111111111111111111' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('must be on the asset&#39;s chain eip155:8453');
    expect((await owner.post(`/dashboard/merchants/${id}/settlements`, { asset: USDC_BASE, destination: DEST })).status).toBe(303);
    const twice = await owner.post(`/dashboard/merchants/${id}/settlements`, { asset: USDC_BASE, destination: DEST });
    expect(twice.text).toContain('already registered');
    const [st] = await env.t.storage.settlements.listByMerchant(p.id, id);
    await owner.get(`/dashboard/merchants/${id}`);
    const other = 'eip155:8453:0x2222222222222222222222222222222222222222';
    expect((await owner.post(`/dashboard/merchants/${id}/settlements/${st!.id}`, { destination: other })).status).toBe(303);
    expect((await env.t.storage.settlements.get(p.id, id, st!.id))!.destination).toBe(other);
    await owner.get(`/dashboard/merchants/${id}`);
    expect((await owner.post(`/dashboard/merchants/${id}/settlements/${st!.id}/remove`)).status).toBe(303);
    expect(await env.t.storage.settlements.listByMerchant(p.id, id)).toEqual([]);

    const audit = await owner.get('/dashboard/audit');
    const actions = [...audit.text.matchAll(/data-action="([^"]+)"/g)].map((x) => x[1]);
    expect(actions).toEqual(expect.arrayContaining(['merchant.create', 'settlement.create', 'settlement.update', 'settlement.delete']));
  });

  it('a viewer reads merchants but every write is refused (403), and no form is shown', async () => {
    const p = await env.t.newPartner();
    const owner = await signedIn('owner', p.id);
    const id = await newMerchant(owner, 'Read only');
    const viewer = await signedIn('viewer', p.id);
    const list = await viewer.get('/dashboard/merchants');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('id="create-merchant"');
    expect((await viewer.get(`/dashboard/merchants/${id}`)).text).not.toContain('id="save-merchant"');
    expect((await viewer.post('/dashboard/merchants', { name: 'X', email: 'x@example.test' })).status).toBe(403);
    expect((await viewer.post(`/dashboard/merchants/${id}`, { name: 'X', email: 'x@example.test' })).status).toBe(403);
    expect((await viewer.post(`/dashboard/merchants/${id}/delete`)).status).toBe(403);
    expect((await viewer.post(`/dashboard/merchants/${id}/settlements`, { asset: USDC_BASE, destination: DEST })).status).toBe(403);
    expect((await env.t.storage.merchants.get(p.id, id))!.name).toBe('Read only');
  });

  it('refuses a form without the CSRF token, and another partner’s merchant is not found', async () => {
    const p = await env.t.newPartner();
    const owner = await signedIn('owner', p.id);
    const id = await newMerchant(owner, 'Guarded');
    const forged = await owner.post(`/dashboard/merchants/${id}/delete`, { _csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect(await env.t.storage.merchants.get(p.id, id)).not.toBeNull();
    const stranger = await signedIn('owner');
    expect((await stranger.get(`/dashboard/merchants/${id}`)).status).toBe(404);
    await stranger.get('/dashboard/merchants');
    expect((await stranger.post(`/dashboard/merchants/${id}/delete`)).status).toBe(404);
    expect((await stranger.post(`/dashboard/merchants/${id}`, { name: 'Taken', email: 't@example.test', collect: 'off' })).status).toBe(404);
    expect((await env.t.storage.merchants.get(p.id, id))!.name).toBe('Guarded');
  });

  it('pages the merchant list by keyset, 25 a page', async () => {
    const p = await env.t.newPartner();
    for (let i = 0; i < 27; i++) {
      env.t.clock.set(env.t.clock.now() + 1);
      const r = await env.t.call('POST', '/v1/merchants', {
        key: p.key,
        headers: { 'Idempotency-Key': `bulk-${i}` },
        body: { merchantName: `Bulk ${i}`, merchantEmail: `bulk${i}@example.test` },
      });
      expect(r.status).toBe(201);
    }
    const c = dashboardClient(env.t.url, env.address());
    await c.signIn(await env.user('viewer', p.id), PASSWORD);
    const first = await c.get('/dashboard/merchants');
    expect([...first.text.matchAll(/data-merchant-id=/g)]).toHaveLength(25);
    const next = /href="(\/dashboard\/merchants\?before=[^"]+)"/.exec(first.text)![1]!;
    const second = await c.get(next.replaceAll('&amp;', '&'));
    expect([...second.text.matchAll(/data-merchant-id=/g)]).toHaveLength(2);
    expect(second.text).toContain('(27)');
  });
});
