import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keysTool } from './test-support/run-keys.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStorage } from '../../adapters/storage/postgres/index.ts';
import { verifyPassword } from '../../server/domain/users/passwords.ts';
import { startTestApp } from '../../test/helpers/test-app.ts';
import { copyMigratedDataDir } from '../../test/helpers/embedded-storage.ts';

const dataDir = copyMigratedDataDir(mkdtempSync(join(tmpdir(), 'keys-cli-')));

async function keys(...args: string[]): Promise<{ stdout: string; code: number; stderr: string }> {
  return keysWithInput(undefined, ...args);
}

const keysWithInput = keysTool(dataDir);

describe('key tool on the embedded data directory', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates a partner and keys, lists and revokes them; the server accepts exactly the live keys', async () => {
    const created = await keys('create-partner', '--name', 'Acme', '--version', '2026-02-19.preview', '--json');
    expect(created.code).toBe(0);
    const partner = JSON.parse(created.stdout) as { partnerId: string; apiKey: string };
    expect(partner.partnerId).toMatch(/^ptnr_/);
    expect(partner.apiKey).toMatch(/^sk_test_/);

    const wallet = JSON.parse((await keys('create-key', '--partner', partner.partnerId, '--scope', 'wallet', '--json')).stdout) as { keyId: string; apiKey: string };
    expect(wallet.apiKey).toMatch(/^wk_/);
    const second = JSON.parse((await keys('create-key', '--partner', partner.partnerId, '--scope', 'partner', '--json')).stdout) as { keyId: string; apiKey: string };

    const listed = JSON.parse((await keys('list', '--partner', partner.partnerId, '--json')).stdout) as Array<{ keyId: string; scope: string; hint: string }>;
    expect(listed.map((k) => k.scope).sort()).toEqual(['partner', 'partner', 'wallet']);
    expect(JSON.stringify(listed)).not.toContain(second.apiKey);
    expect((await keys('revoke', second.keyId, '--json')).code).toBe(0);
    expect((await keys('revoke', second.keyId)).code).toBe(2);

    // The server, on the same data directory once the tool has exited, sees what the tool wrote.
    const storage = await createPostgresStorage({ embedded: true, dataDir });
    const t = await startTestApp(storage);
    try {
      const ok = await t.call('GET', '/v1/merchants', { key: partner.apiKey });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('svc-version')).toBe('2026-02-19.preview');
      expect((await t.call('GET', '/v1/merchants', { key: second.apiKey })).body.code).toBe('invalid_api_key');
      expect((await t.call('GET', '/v1/merchants', { key: wallet.apiKey })).body.code).toBe('forbidden');
    } finally {
      await t.close();
      await storage.close();
    }
  }, 120_000);

  it('explains usage errors with exit code 2', async () => {
    for (const args of [
      [],
      ['create-partner'],
      ['create-key', '--partner', 'ptnr_x', '--scope', 'admin'],
      ['create-partner', '--name', 'X', '--version', '1999-01-01'],
      ['frobnicate'],
    ]) {
      const r = await keys(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.length).toBeGreaterThan(0);
    }
  }, 120_000);

  it('creates a dashboard user with the password from standard input, refusing weak passwords, duplicates and bad roles', async () => {
    const partner = JSON.parse((await keys('create-partner', '--name', 'Users Inc', '--json')).stdout) as { partnerId: string };
    const args = ['create-user', '--partner', partner.partnerId, '--email', 'Owner@Example.test', '--role', 'owner', '--password-stdin', '--json'];
    for (const weak of ['', 'short', 'aaaaaaaaaaaaaaaa', 'password123']) {
      const r = await keysWithInput(weak, ...args);
      expect(r.code, JSON.stringify(weak)).toBe(2);
      expect(r.stderr).toMatch(/password/i);
    }
    const made = await keysWithInput('correct horse battery staple\n', ...args);
    expect(made.code, made.stderr).toBe(0);
    const user = JSON.parse(made.stdout) as { userId: string; email: string; role: string; temporaryPasswordUntil: string };
    expect(user).toMatchObject({ email: 'owner@example.test', role: 'owner' });
    // The operator chose it: temporary, for TEMPORARY_PASSWORD_HOURS (72 by default), replaced at the first sign-in.
    expect(Date.parse(user.temporaryPasswordUntil) - Date.now()).toBeGreaterThan(71 * 3_600_000);
    expect(Date.parse(user.temporaryPasswordUntil) - Date.now()).toBeLessThanOrEqual(72 * 3_600_000);
    expect(user.userId).toMatch(/^usr_/);
    expect(made.stdout).not.toContain('correct horse');
    expect((await keysWithInput('another long passphrase', ...args)).stderr).toMatch(/already has a user with this email/);
    expect(
      (await keysWithInput('another long passphrase', 'create-user', '--partner', partner.partnerId, '--email', 'v@example.test', '--role', 'admin', '--password-stdin')).code,
    ).toBe(2);
    expect(
      (await keysWithInput('another long passphrase', 'create-user', '--partner', 'ptnr_nope', '--email', 'v@example.test', '--role', 'viewer', '--password-stdin')).stderr,
    ).toMatch(/No partner/);
    // Never from the command line, where it would sit in the shell history and the process list.
    expect((await keys('create-user', '--partner', partner.partnerId, '--email', 'v@example.test', '--role', 'viewer')).stderr).toMatch(/--password-stdin/);

    // The stored hash verifies the password (the dashboard's sign-in check), and is scrypt with its parameters.
    const storage = await createPostgresStorage({ embedded: true, dataDir });
    try {
      const [stored] = await storage.users.listByEmail('owner@example.test', 1);
      expect(stored?.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
      expect(stored?.passwordExpiresAt?.toISOString()).toBe(user.temporaryPasswordUntil);
      expect(await verifyPassword('correct horse battery staple', stored!.passwordHash)).toBe(true);
      expect(await verifyPassword('correct horse battery stapl', stored!.passwordHash)).toBe(false);
      expect((await storage.auditLog.listByPartner(partner.partnerId, { limit: 5 })).map((e) => [e.action, e.actor.id])).toEqual([['user.create', 'operator']]);
    } finally {
      await storage.close();
    }
  }, 120_000);
});
