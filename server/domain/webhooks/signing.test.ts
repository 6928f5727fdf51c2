import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signedHeaders } from './signing.ts';

describe('webhook signatures', () => {
  it('are the Standard Webhooks ones: what the reference library signs and verifies, one per secret', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const at = Date.parse('2026-11-24T10:00:00.750Z');
    const body = JSON.stringify({ id: 'evt_1', type: 'payment.created', data: { note: 'ünïcode ✓' } });
    const h = signedHeaders('evt_1', at, body, [current, previous]);
    expect(h['webhook-timestamp']).toBe(String(Math.floor(at / 1000)));
    const expected = [current, previous].map((s) => new Webhook(s).sign('evt_1', new Date(at), body));
    expect(h['webhook-signature']).toBe(expected.join(' '));
    // Only one secret: only its signature.
    expect(signedHeaders('evt_1', at, body, [previous])['webhook-signature']).toBe(expected[1]);
  });
});
