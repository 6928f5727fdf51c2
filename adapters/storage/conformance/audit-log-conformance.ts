import { describe, expect, it } from 'vitest';
import { newId } from '../../../server/domain/ids.ts';
import type { AuditEntry } from '../../../server/domain/audit/records.ts';
import { t0, useStore, type OpenStore } from './store-fixtures.ts';

/** What every storage adapter's audit log does: entries read back as written, per partner, newest first, in pages. */
export function runAuditLogConformance(name: string, open: OpenStore): void {
  describe(`audit log conformance: ${name}`, () => {
    const f = useStore(open);
    const entry = (partnerId: string, atMs: number, detail: AuditEntry['detail'] = {}): AuditEntry => ({
      id: newId('auditEntry', atMs),
      partnerId,
      actor: { kind: 'user', id: newId('user'), display: 'ann@example.test' },
      action: 'api_key.create',
      target: { type: 'api_key', id: newId('apiKey') },
      at: new Date(atMs),
      detail,
    });

    it('reads entries back as written, newest first, only the partner’s own', async () => {
      const [a, b] = [await f.partner(), await f.partner()];
      const e1 = entry(a.id, t0.getTime(), { scope: 'partner', name: 'CI "deploy" <key>', n: 3, ok: true, none: null });
      const e2 = { ...entry(a.id, t0.getTime() + 1000), actor: { kind: 'api_key' as const, id: newId('apiKey'), display: 'key …abcd' } };
      await f.s.auditLog.record(e1);
      await f.s.auditLog.record(e2);
      await f.s.auditLog.record(entry(b.id, t0.getTime() + 2000));
      expect(await f.s.auditLog.listByPartner(a.id, { limit: 10 })).toEqual([e2, e1]);
      expect(await f.s.auditLog.listByPartner(newId('partner'), { limit: 10 })).toEqual([]);
    });

    it('pages with `before`, entries of one instant included exactly once', async () => {
      const p = await f.partner();
      const same = t0.getTime() + 5000;
      const all = [entry(p.id, same), entry(p.id, same), entry(p.id, same), entry(p.id, same + 1), entry(p.id, same - 1)];
      for (const e of all) await f.s.auditLog.record(e);
      const seen: string[] = [];
      let before: { at: Date; id: string } | undefined;
      for (;;) {
        const page = await f.s.auditLog.listByPartner(p.id, { limit: 2, ...(before ? { before } : {}) });
        if (!page.length) break;
        seen.push(...page.map((e) => e.id));
        const last = page[page.length - 1]!;
        before = { at: last.at, id: last.id };
      }
      expect(seen).toHaveLength(5);
      expect(new Set(seen).size).toBe(5);
      expect(seen[0]).toBe(all[3]!.id);
      expect(seen[4]).toBe(all[4]!.id);
    });
  });
}
