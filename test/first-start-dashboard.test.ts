import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../adapters/rate-limit/memory/index.ts';
import { openEmbeddedStorage } from './helpers/embedded-storage.ts';
import { systemClock } from '../server/ports/clock.ts';
import { dashboardClient } from '../server/dashboard/test-support/dashboard-client.ts';
import { FIRST_OWNER_EMAIL, firstStart } from '../server/first-start.ts';
import { startTestApp } from './helpers/test-app.ts';

/** The newcomer's first start reaches the dashboard too: an owner's sign-in printed beside the keys. */
describe('first sandbox start: a dashboard owner', () => {
  it('prints a sign-in, once, that signs in to the dashboard of the partner whose keys it printed', async () => {
    const storage = await openEmbeddedStorage();
    const printed: string[] = [];
    await firstStart(storage, { mode: 'sandbox', publicBaseUrl: 'http://localhost:3000' }, (s) => printed.push(s));
    await firstStart(storage, { mode: 'sandbox', publicBaseUrl: 'http://localhost:3000' }, (s) => printed.push(s));
    expect(printed).toHaveLength(1);
    const text = printed[0]!;
    expect(text).toContain('dashboard:    http://localhost:3000/dashboard');
    const email = /email: +(\S+)/.exec(text)?.[1];
    const password = /password: +(\S+)/.exec(text)?.[1];
    const partnerId = /partner id: +(\S+)/.exec(text)?.[1];
    expect(email).toBe(FIRST_OWNER_EMAIL);
    expect(password?.length).toBeGreaterThanOrEqual(16);

    const [stored] = await storage.users.listByEmail(FIRST_OWNER_EMAIL, 1);
    expect(stored).toMatchObject({ role: 'owner', partnerId });
    // Only its hash is kept.
    expect(stored!.passwordHash).not.toContain(password);

    const limiter = () => createMemoryRateLimiter({ perSecond: 1, burst: 10 }, systemClock);
    const t = await startTestApp(storage, { dashboard: { signInLimiters: { perAccount: limiter(), perAddress: limiter() } } });
    try {
      const owner = dashboardClient(t.url);
      expect((await owner.signIn(email!, 'not the printed password')).status).not.toBe(303);
      const signedIn = await owner.signIn(email!, password!);
      expect(signedIn.status).toBe(303);
      const keys = await owner.get('/dashboard/keys');
      expect(keys.status).toBe(200);
      // The owner's partner is the one whose keys the same start printed: its keys page shows the wallet key's last characters.
      const walletKey = /wallet key: +(\S+)/.exec(text)![1]!;
      expect(keys.text).toContain(walletKey.slice(-4));
    } finally {
      await t.close();
      await storage.close();
    }
  }, 120_000);

  it('in production creates no user', async () => {
    const storage = await openEmbeddedStorage();
    try {
      const printed: string[] = [];
      await firstStart(storage, { mode: 'production', publicBaseUrl: 'https://pay.example.com' }, (s) => printed.push(s));
      expect(await storage.users.listByEmail(FIRST_OWNER_EMAIL, 1)).toEqual([]);
      expect(printed.join('\n')).toMatch(/create-user --partner <partner id> --email <email> --role owner --password-stdin/);
      expect(printed.join('\n')).not.toMatch(/password: /);
    } finally {
      await storage.close();
    }
  });
});
