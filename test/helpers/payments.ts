import type { TestApp } from './test-app.ts';

export const USDC_BASE = 'eip155:8453/erc20:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const EVM_DEST = 'eip155:8453:0x1234567890abcdef1234567890abcdef12345678';

/** A merchant of `key`'s partner with a USDC settlement, ready to take payments. */
export async function payableMerchant(t: TestApp, key: string, name = 'Shop'): Promise<string> {
  const m = await t.call('POST', '/v1/merchants', { key, headers: { 'Idempotency-Key': `pm-${Math.random()}` }, body: { merchantName: name, merchantEmail: 'pay@shop.co' } });
  const id = m.body.merchant.id as string;
  const s = await t.call('POST', `/v1/merchants/${id}/settlements/crypto`, {
    key,
    headers: { 'Idempotency-Key': `ps-${Math.random()}` },
    body: { settlements: [{ asset: USDC_BASE, destination: EVM_DEST }] },
  });
  if (s.status !== 201) throw new Error(`settlement setup failed: ${JSON.stringify(s.body)}`);
  return id;
}

export function createPayment(t: TestApp, key: string, merchantId: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return t.call('POST', '/v1/payments', {
    key,
    headers: { 'Merchant-Id': merchantId, ...headers },
    body: { amount: { unit: 'iso4217/USD', value: '1050' }, referenceId: `order-${Math.random().toString(36).slice(2, 10)}`, expiresAt: null, ...body },
  });
}
