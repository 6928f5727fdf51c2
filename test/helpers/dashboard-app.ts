import { afterAll, beforeAll, expect } from 'vitest';
import { createMemoryRateLimiter } from '../../adapters/rate-limit/memory/index.ts';
import { systemClock } from '../../server/ports/clock.ts';
import { createUser, OPERATOR } from '../../server/domain/users/manage-users.ts';
import type { Role } from '../../server/domain/users/records.ts';
import { dashboardClient } from '../../server/dashboard/test-support/dashboard-client.ts';
import { storageBackends, type TestStorage } from './backends.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import type { AppDeps } from '../../server/app.ts';

export const PASSWORD = 'a long enough passphrase';

/**
 * The app with its dashboard on PostgreSQL (PGlite when no server answers) for the suite this is
 * called in, trusting one proxy hop so each client can have its own address; sign-in limited to
 * 5 attempts per account and 12 per address, then one a minute.
 */
export function useDashboardApp(extra: Partial<AppDeps> = {}) {
  let store: (TestStorage & { dispose(): Promise<void> }) | undefined;
  let app: TestApp | undefined;
  let n = 0;
  beforeAll(async () => {
    const backends = await storageBackends();
    store = await backends[backends.length - 1]!.open();
    app = await startTestApp(store, {
      trustProxyHops: 1,
      ...extra,
      dashboard: {
        signInLimiters: {
          perAccount: createMemoryRateLimiter({ perSecond: 1 / 60, burst: 5 }, systemClock),
          perAddress: createMemoryRateLimiter({ perSecond: 1 / 60, burst: 12 }, systemClock),
        },
      },
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });
  const t = (): TestApp => {
    if (!app) throw new Error('app not started yet');
    return app;
  };
  const address = () => ({ 'X-Forwarded-For': `10.0.${Math.floor(++n / 250)}.${n % 250}` });
  async function user(role: Role, partnerId = t().a.id): Promise<string> {
    const email = `${role}-${++n}-${Math.random().toString(36).slice(2, 8)}@example.test`;
    const made = await createUser(t().storage, { partnerId, email, role, password: PASSWORD, actor: OPERATOR });
    if (!made.ok) throw new Error(made.problem);
    return email;
  }
  return {
    get t(): TestApp {
      return t();
    },
    get store(): TestStorage & { dispose(): Promise<void> } {
      return store!;
    },
    /** A client address of its own, so per-address buckets do not mix between tests. */
    address,
    /** A new user of the partner (partner a by default); its email. */
    user,
    /** A client signed in as a new user with this role. */
    async signedIn(role: Role, partnerId?: string) {
      const c = dashboardClient(t().url, address());
      const r = await c.signIn(await user(role, partnerId), PASSWORD);
      expect(r.status).toBe(303);
      return c;
    },
  };
}
