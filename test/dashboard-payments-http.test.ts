// Long because: the dashboard's merchants, settlements, payments, refunds, cancels and CSV export over HTTP, sharing one dashboard app and its helpers.
import { describe, expect, it } from 'vitest';
import { PASSWORD, useDashboardApp } from './helpers/dashboard-app.ts';
import { dashboardClient } from '../server/dashboard/test-support/dashboard-client.ts';
import { parse } from 'csv-parse/sync';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { TEST_ASSETS } from './helpers/test-app.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { transitionPayment } from '../server/domain/payments/transition.ts';

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
    // The asset by name, its CAIP-19 id on hover.
    const page = await owner.get(`/dashboard/merchants/${id}`);
    expect(page.text).toMatch(new RegExp(`<span title="${USDC_BASE}">USDC on [^<]+</span>`));
    const other = 'eip155:8453:0x2222222222222222222222222222222222222222';
    expect((await owner.post(`/dashboard/merchants/${id}/settlements/${st!.id}`, { destination: other })).status).toBe(303);
    expect((await env.t.storage.settlements.get(p.id, id, st!.id))!.destination).toBe(other);
    await owner.get(`/dashboard/merchants/${id}`);
    expect((await owner.post(`/dashboard/merchants/${id}/settlements/${st!.id}/remove`)).status).toBe(303);
    expect(await env.t.storage.settlements.listByMerchant(p.id, id)).toEqual([]);

    const audit = await owner.get('/dashboard/audit');
    const actions = [...audit.text.matchAll(/data-action="([^"]+)"/g)].map((x) => x[1]);
    expect(actions).toEqual(expect.arrayContaining(['merchant.create', 'settlement.add', 'settlement.change', 'settlement.remove']));
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

describe('dashboard payments, refunds, cancels and CSV', () => {
  async function payable(p: { id: string; key: string }) {
    const merchant = await payableMerchant(env.t, p.key);
    return merchant;
  }
  const succeed = async (paymentId: string) => {
    const p = (await env.t.storage.payments.get(paymentId))!;
    const r = await transitionPayment({ storage: env.t.storage, clock: env.t.clock, assets: createAssetRegistry(TEST_ASSETS) }, p, 'succeeded', {
      optionId: 'opt_1',
      buyerAccount: 'eip155:8453:0x00000000000000000000000000000000000000b1',
      asset: USDC_BASE,
      tokenValue: 10_500_000n,
      network: 'eip155:8453',
      txId: `0x${paymentId.slice(-8).padStart(64, 'a')}`,
      succeededAt: new Date(env.t.clock.now()),
    });
    expect(r.ok).toBe(true);
  };

  it('lists with the API’s filters and stats, shows a payment’s timeline, refunds it once (audited)', async () => {
    const p = await env.t.newPartner();
    const merchant = await payable(p);
    const paid = (await createPayment(env.t, p.key, merchant, { referenceId: 'order-<b>1' })).body.paymentId as string;
    const open = (await createPayment(env.t, p.key, merchant, { referenceId: 'order-2' })).body.paymentId as string;
    await succeed(paid);
    const owner = await signedIn('owner', p.id);

    const all = await owner.get('/dashboard/payments');
    expect(all.status).toBe(200);
    expect(all.text).toContain(`data-payment-id="${paid}"`);
    expect(all.text).toContain(`data-payment-id="${open}"`);
    expect(all.text).toContain('order-&lt;b&gt;1');
    expect(/id="stat-transactions">(\d+)</.exec(all.text)![1]).toBe('1');
    const succeeded = await owner.get('/dashboard/payments?status=succeeded');
    expect(succeeded.text).toContain(paid);
    expect(succeeded.text).not.toContain(open);
    const byRef = await owner.get('/dashboard/payments?reference=ORDER-2');
    expect(byRef.text).toContain(open);
    expect(byRef.text).not.toContain(`data-payment-id="${paid}"`);
    expect((await owner.get('/dashboard/payments?network=eip155:8453')).text).not.toContain(`data-payment-id="${open}"`);
    expect((await owner.get('/dashboard/payments?from=2999-01-01')).text).toContain('No payments match.');
    const badDate = await owner.get('/dashboard/payments?from=2026-02-31');
    expect(badDate.status).toBe(400);
    expect(badDate.text).toContain('From: give a date as YYYY-MM-DD.');

    const page = await owner.get(`/dashboard/payments/${paid}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('eip155:8453:0x00000000000000000000000000000000000000b1');
    expect(page.text).toContain('10.50 USDC');
    expect(page.text).not.toContain('10.500000');
    expect([...page.text.matchAll(/data-event="([^"]+)"/g)].map((m) => m[1])).toEqual(['payment.created', 'payment.succeeded']);
    const refunded = await owner.post(`/dashboard/payments/${paid}/refund`);
    expect(refunded.status).toBe(303);
    const after = await owner.get(refunded.headers.get('location')!);
    expect(after.text).toContain('Payment marked refunded');
    expect([...after.text.matchAll(/data-event="([^"]+)"/g)].map((m) => m[1])).toEqual(['payment.created', 'payment.succeeded', 'payment.refunded']);
    const again = await owner.post(`/dashboard/payments/${paid}/refund`);
    expect(again.status).toBe(409);
    expect(again.text).toContain('This payment is already refunded');
    const notYet = await owner.post(`/dashboard/payments/${open}/refund`);
    expect(notYet.text).toContain('Only a succeeded payment can be refunded; this one is requires_action');

    const audit = await owner.get('/dashboard/audit');
    expect(audit.text).toContain('data-action="payment.refund"');
  });

  it('cancels an unpaid payment (an owner may); a viewer’s and a developer’s refund and cancel are refused 403; CSRF refused', async () => {
    const p = await env.t.newPartner();
    const merchant = await payable(p);
    const id = (await createPayment(env.t, p.key, merchant)).body.paymentId as string;
    const viewer = await signedIn('viewer', p.id);
    const seen = await viewer.get(`/dashboard/payments/${id}`);
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain('Cancel payment');
    expect((await viewer.post(`/dashboard/payments/${id}/cancel`)).status).toBe(403);
    expect((await viewer.post(`/dashboard/payments/${id}/refund`)).status).toBe(403);
    // A developer has keys, webhooks and read (issue 21's roles): no money moves from that role.
    const dev = await signedIn('developer', p.id);
    expect((await dev.get(`/dashboard/payments/${id}`)).text).not.toContain('Cancel payment');
    expect((await dev.post(`/dashboard/payments/${id}/cancel`)).status).toBe(403);
    expect((await dev.post(`/dashboard/payments/${id}/refund`)).status).toBe(403);
    const owner = await signedIn('owner', p.id);
    await owner.get(`/dashboard/payments/${id}`);
    expect((await owner.post(`/dashboard/payments/${id}/cancel`, { _csrf: 'nope' })).status).toBe(403);
    expect((await env.t.storage.payments.get(id))!.status).toBe('requires_action');
    expect((await owner.post(`/dashboard/payments/${id}/cancel`)).status).toBe(303);
    expect((await env.t.storage.payments.get(id))!.status).toBe('cancelled');
    const twice = await owner.post(`/dashboard/payments/${id}/cancel`);
    expect(twice.status).toBe(409);
    expect(twice.text).toContain('A cancelled payment cannot be cancelled');
    // Another partner's payment is simply not there.
    const stranger = await signedIn('owner');
    expect((await stranger.get(`/dashboard/payments/${id}`)).status).toBe(404);
    await stranger.get('/dashboard/merchants');
    expect((await stranger.post(`/dashboard/payments/${id}/refund`)).status).toBe(404);
  });

  it('exports the filtered list as streamed CSV: parses, escapes, and neutralises formulas', async () => {
    const p = await env.t.newPartner();
    const merchant = await payable(p);
    const hostile = ['=HYPERLINK("http://evil.example","x")', '+1+1', '-2', '@SUM(A1)', 'plain, "quoted"\nline'];
    const ids: string[] = [];
    for (const ref of hostile) ids.push((await createPayment(env.t, p.key, merchant, { referenceId: ref })).body.paymentId);
    // More than one storage batch (500): the export pages through storage rather than reading all at once.
    const bulk = await Promise.all(Array.from({ length: 520 }, (_, i) => createPayment(env.t, p.key, merchant, { referenceId: `bulk-${i}` })));
    expect(bulk.every((r) => r.status === 201)).toBe(true);
    const owner = await signedIn('viewer', p.id);
    const res = await owner.get('/dashboard/payments.csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="payments-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows: string[][] = parse(res.text);
    expect(rows[0]![0]).toBe('payment_id');
    expect(rows).toHaveLength(1 + 525);
    expect(new Set(rows.slice(1).map((r) => r[0])).size).toBe(525);
    const refs = new Map(rows.slice(1).map((r) => [r[0]!, r[1]!]));
    expect(refs.get(ids[0]!)).toBe(`'${hostile[0]}`);
    expect(refs.get(ids[1]!)).toBe("'+1+1");
    expect(refs.get(ids[2]!)).toBe("'-2");
    expect(refs.get(ids[3]!)).toBe("'@SUM(A1)");
    expect(refs.get(ids[4]!)).toBe('plain, "quoted"\nline');
    for (const r of rows.slice(1)) for (const cell of r) expect(cell).not.toMatch(/^[=+\-@]/);

    const filtered: string[][] = parse((await owner.get('/dashboard/payments.csv?reference=bulk-51')).text);
    expect(
      filtered
        .slice(1)
        .map((r) => r[1])
        .sort(),
    ).toEqual(['bulk-51', 'bulk-510', 'bulk-511', 'bulk-512', 'bulk-513', 'bulk-514', 'bulk-515', 'bulk-516', 'bulk-517', 'bulk-518', 'bulk-519']);
    expect((await owner.get('/dashboard/payments.csv?to=nope')).status).toBe(400);

    // The list pages by keyset, 50 a page, with no payment twice.
    const seen = new Set<string>();
    let href: string | undefined = '/dashboard/payments';
    let pages = 0;
    while (href) {
      const html: string = (await owner.get(href)).text;
      const onPage = [...html.matchAll(/data-payment-id="([^"]+)"/g)].map((m) => m[1]!);
      expect(onPage.length).toBeLessThanOrEqual(50);
      for (const id of onPage) seen.add(id);
      href = /href="(\/dashboard\/payments\?after=[^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
      pages++;
    }
    expect(pages).toBe(11);
    expect(seen.size).toBe(525);
  }, 120_000);
});
