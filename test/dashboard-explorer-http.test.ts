import { describe, expect, it } from 'vitest';
import { useDashboardApp } from './helpers/dashboard-app.ts';
import { createPayment, payableMerchant } from './helpers/payments.ts';
import { TEST_ASSETS } from './helpers/test-app.ts';
import { createAssetRegistry } from '../server/domain/assets.ts';
import { transitionPayment } from '../server/domain/payments/transition.ts';

/** A payment's transaction links to its chain's explorer (EXPLORER_TX_URLS) or shows as text. */
const env = useDashboardApp({ explorerTxUrls: { 'eip155:8453': 'https://basescan.org/tx/{txId}?from=dashboard' } });

const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

async function paidPayment(network: string, txId: string): Promise<{ partnerId: string; paymentId: string }> {
  const p = await env.t.newPartner();
  const merchant = await payableMerchant(env.t, p.key);
  const paymentId = (await createPayment(env.t, p.key, merchant, { referenceId: `order-${Math.random().toString(36).slice(2)}` })).body.paymentId as string;
  const record = (await env.t.storage.payments.get(paymentId))!;
  const r = await transitionPayment({ storage: env.t.storage, clock: env.t.clock, assets: createAssetRegistry(TEST_ASSETS) }, record, 'succeeded', {
    optionId: 'opt_1',
    buyerAccount: `${network}:0x00000000000000000000000000000000000000b1`,
    asset: USDC_BASE,
    tokenValue: 10_500_000n,
    network,
    txId,
    succeededAt: new Date(env.t.clock.now()),
  });
  expect(r.ok).toBe(true);
  return { partnerId: p.id, paymentId };
}

const txFact = (html: string) => /<dd id="tx">(.*?)<\/dd>/s.exec(html)![1]!;

describe('dashboard explorer links', () => {
  it('links the transaction to the configured explorer, the id URL-encoded, without an opener or referrer', async () => {
    const tx = `0x${'ab'.repeat(32)}`;
    const { partnerId, paymentId } = await paidPayment('eip155:8453', tx);
    const owner = await env.signedIn('viewer', partnerId);
    const fact = txFact((await owner.get(`/dashboard/payments/${paymentId}`)).text);
    expect(fact).toBe(`<a href="https://basescan.org/tx/${tx}?from=dashboard" rel="noopener noreferrer"><code>${tx}</code></a>`);
  });

  it('encodes an id that could change the URL, and escapes it in the page', async () => {
    const tx = 'x/../y?z=1#"><b>';
    const { partnerId, paymentId } = await paidPayment('eip155:8453', tx);
    const owner = await env.signedIn('viewer', partnerId);
    const fact = txFact((await owner.get(`/dashboard/payments/${paymentId}`)).text);
    expect(fact).toContain(`href="https://basescan.org/tx/${encodeURIComponent(tx).replaceAll('"', '&quot;')}?from=dashboard"`);
    expect(fact).toContain('x%2F..%2Fy%3Fz%3D1%23%22%3E%3Cb%3E');
    expect(fact).not.toContain('<b>');
  });

  it('shows the id as plain text on a chain without an explorer', async () => {
    const tx = `0x${'cd'.repeat(32)}`;
    const { partnerId, paymentId } = await paidPayment('eip155:1', tx);
    const owner = await env.signedIn('viewer', partnerId);
    expect(txFact((await owner.get(`/dashboard/payments/${paymentId}`)).text)).toBe(`<code>${tx}</code>`);
  });
});
