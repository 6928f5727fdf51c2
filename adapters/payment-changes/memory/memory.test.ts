import { describe, expect, it } from 'vitest';
import { runPaymentChangesConformance } from '../conformance/payment-changes-conformance.ts';
import { createMemoryPaymentChanges } from './index.ts';

runPaymentChangesConformance('memory', async () => {
  const changes = createMemoryPaymentChanges();
  return { changes, publish: async (id) => changes.publish(id), loseNotifications: async () => changes.resyncAll() };
});

describe('memory payment changes specifics', () => {
  it('resyncs every subscriber, and keeps no entry for a payment nobody waits on', () => {
    const changes = createMemoryPaymentChanges();
    const heard: string[] = [];
    const offs = ['a', 'b', 'c'].map((id) => changes.subscribe(id, (s) => heard.push(`${id}:${s}`)));
    expect(changes.size).toBe(3);
    changes.resyncAll();
    expect(heard.sort()).toEqual(['a:resync', 'b:resync', 'c:resync']);
    for (const off of offs) off();
    expect(changes.size).toBe(0);
  });
});
