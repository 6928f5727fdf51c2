import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import type { StoragePort } from '../../ports/storage/index.ts';
import type { WebhookEndpointPatch, WebhookEndpointRecord } from './records.ts';
import { MAX_WEBHOOK_ENDPOINTS } from './limits.ts';
import { SECRET_OVERLAP_MS } from './schedule.ts';
import { createEndpoint, rotateSecret, updateEndpoint, type WebhookEndpointDeps } from './endpoints.ts';

/** Endpoints in a map: only what these use cases call. */
function endpointStore() {
  const rows = new Map<string, WebhookEndpointRecord>();
  const webhooks = {
    async createEndpointWithinLimit(e: WebhookEndpointRecord, limit: number) {
      if ([...rows.values()].filter((r) => r.partnerId === e.partnerId).length >= limit) return false;
      rows.set(e.id, e);
      return true;
    },
    async getEndpoint(partnerId: string, id: string) {
      const e = rows.get(id);
      return e && e.partnerId === partnerId ? e : null;
    },
    async updateEndpoint(partnerId: string, id: string, patch: WebhookEndpointPatch) {
      const e = rows.get(id);
      if (!e || e.partnerId !== partnerId) return null;
      const updated = { ...e, ...patch };
      rows.set(id, updated);
      return updated;
    },
  };
  return { rows, storage: { webhooks } as unknown as StoragePort };
}

function setup() {
  const { rows, storage } = endpointStore();
  let now = Date.parse('2026-01-01T00:00:00Z');
  const deps: WebhookEndpointDeps = {
    storage,
    clock: { now: () => now },
    endpointPolicy: {
      allowLoopback: false,
      lookup: async (host) => (host === 'hooks.example' ? [{ address: '93.1.1.1' }] : []),
      addresses: { isPublic: (a) => a.startsWith('93.'), isOwnHostAddress: () => false },
    },
  };
  return { rows, deps, advance: (ms: number) => (now += ms), now: () => now };
}

/** A partner pinned to the first version, whose events lack `payment.reversed`. */
const OWNER = { id: 'ptn_1', defaultVersion: '2026-02-18' };

const errorCode = (p: Promise<unknown>) =>
  p.then(
    () => 'none',
    (e: unknown) => (e instanceof AppError ? e.code : 'other'),
  );

describe('webhook endpoint use cases', () => {
  it('creates an endpoint on, with its events once each and a fresh secret; refuses a URL the policy refuses and one past the cap', async () => {
    const t = setup();
    const e = await createEndpoint(t.deps, OWNER, { url: 'https://hooks.example/in', enabledEvents: ['payment.created', 'payment.created'] });
    expect(e).toMatchObject({ partnerId: 'ptn_1', enabled: true, disabledReason: null, enabledEvents: ['payment.created'], previousSecret: null });
    expect(e.secret).toMatch(/^whsec_/);
    expect(await errorCode(createEndpoint(t.deps, OWNER, { url: 'https://nowhere.example/in', enabledEvents: [] }))).toBe('params_validation');
    for (let i = 1; i < MAX_WEBHOOK_ENDPOINTS; i++) await createEndpoint(t.deps, OWNER, { url: 'https://hooks.example/in', enabledEvents: [] });
    expect(await errorCode(createEndpoint(t.deps, OWNER, { url: 'https://hooks.example/in', enabledEvents: [] }))).toBe('webhook_endpoint_limit');
  });

  it('clears why the service turned an endpoint off when the partner turns it back on, not when it turns it off', async () => {
    const t = setup();
    const e = await createEndpoint(t.deps, OWNER, { url: 'https://hooks.example/in', enabledEvents: ['payment.created'] });
    t.rows.set(e.id, { ...e, enabled: false, disabledReason: 'gone' });
    expect(await updateEndpoint(t.deps, OWNER, e.id, { enabled: false })).toMatchObject({ enabled: false, disabledReason: 'gone' });
    expect(await updateEndpoint(t.deps, OWNER, e.id, { enabled: true })).toMatchObject({ enabled: true, disabledReason: null });
  });

  it('refuses an update that changes nothing, then an unknown endpoint before checking the URL', async () => {
    const t = setup();
    expect(await errorCode(updateEndpoint(t.deps, OWNER, 'whe_x', {}))).toBe('params_validation');
    expect(await errorCode(updateEndpoint(t.deps, OWNER, 'whe_x', { url: 'https://nowhere.example/in' }))).toBe('not_found');
  });

  it('subscribes only to events of the pinned version: payment.reversed from 2026-11-27, refused (400) on an older pin, on create and update', async () => {
    const t = setup();
    const reversed = { url: 'https://hooks.example/in', enabledEvents: ['payment.succeeded', 'payment.reversed'] };
    expect(await errorCode(createEndpoint(t.deps, OWNER, reversed))).toBe('params_validation');
    expect(await errorCode(createEndpoint(t.deps, { ...OWNER, defaultVersion: '2026-02-19.preview' }, reversed))).toBe('params_validation');
    const e = await createEndpoint(t.deps, OWNER, { url: 'https://hooks.example/in', enabledEvents: ['payment.succeeded'] });
    expect(await errorCode(updateEndpoint(t.deps, OWNER, e.id, { enabledEvents: ['payment.reversed'] }))).toBe('params_validation');
    expect(t.rows.get(e.id)?.enabledEvents).toEqual(['payment.succeeded']);
    const upgraded = { ...OWNER, defaultVersion: '2026-11-27' };
    expect((await updateEndpoint(t.deps, upgraded, e.id, { enabledEvents: ['payment.reversed'] })).enabledEvents).toEqual(['payment.reversed']);
    expect((await createEndpoint(t.deps, upgraded, reversed)).enabledEvents).toEqual(['payment.succeeded', 'payment.reversed']);
  });

  it('rotation keeps the old secret signing until the overlap ends', async () => {
    const t = setup();
    const e = await createEndpoint(t.deps, OWNER, { url: 'https://hooks.example/in', enabledEvents: [] });
    t.advance(1000);
    const rotated = await rotateSecret(t.deps, 'ptn_1', e.id);
    expect(rotated.secret).not.toBe(e.secret);
    expect(rotated).toMatchObject({ previousSecret: e.secret, previousSecretExpiresAt: new Date(t.now() + SECRET_OVERLAP_MS), updatedAt: new Date(t.now()) });
    expect(await errorCode(rotateSecret(t.deps, 'ptn_2', e.id))).toBe('not_found');
  });
});
